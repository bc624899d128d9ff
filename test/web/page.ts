/**
 * Page tests' helpers: a real `tributary peer start` process serving the built web app, Debian
 * Chromium through playwright-core with a fresh profile, and screenshots saved under
 * test-artifacts/web/. Everything started here is closed by `closeAll()`.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { build, defaultClientConditions } from 'vite'
import { ensureWebBuilt } from '../../apps/web/scripts/ensure-built.ts'
import { chromiumArgs, chromiumPath } from '../chromium.ts'
import { type PeerProcess, startPeerProcess } from '../helpers/peer-process.ts'
import { servePages } from '../helpers/static-pages.ts'

export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/web/', import.meta.url))

const cleanups: Array<() => Promise<void>> = []

/** Builds apps/web if its dist is missing or stale (a no-op after `npm test`'s build step). */
export async function buildWebApp(): Promise<void> {
  await ensureWebBuilt({ timeoutMs: 120_000 })
}

/** A peer process on free loopback ports with its own data dir, serving the built app. */
export async function startWebPeer(bootstrap: string[] = []): Promise<PeerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tributary-web-peer-'))
  const peer = await startPeerProcess(dataDir, { bootstrap })
  cleanups.push(async () => {
    await peer.stop('SIGTERM')
    await rm(dataDir, { recursive: true, force: true })
  })
  return peer
}

/**
 * Starts `peer` again on its data dir (same identity) and its TCP, WebSocket and HTTP ports, so a
 * page that knew it finds it where it was. `peer` must have stopped.
 */
export async function restartWebPeer(peer: PeerProcess): Promise<PeerProcess> {
  const port = (pattern: RegExp): string => {
    const found = peer.addresses.map((a) => pattern.exec(a)?.[1]).find((p) => p !== undefined)
    if (found === undefined) throw new Error(`no address of ${peer.peerId} matches ${pattern}`)
    return found
  }
  const args = [
    '--port',
    port(/\/tcp\/(\d+)\/p2p\//),
    '--ws-port',
    port(/\/tcp\/(\d+)\/ws\//),
    '--http-port',
    String(peer.httpPort),
  ]
  const again = await startPeerProcess(peer.dataDir, { args })
  cleanups.push(async () => {
    await again.stop('SIGTERM')
  })
  return again
}

/**
 * A headless Chromium with a fresh profile (so a fresh IndexedDB), one page open. `webrtc`:
 * grant camera and microphone, without which Chromium gathers no ICE candidates on loopback
 * (PLATFORM.md). `profile`: start on that profile directory instead (a browser restarted on what
 * an earlier one left — close that one first).
 */
export async function openBrowser(
  options: { webrtc?: boolean; profile?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const profile = options.profile ?? (await mkdtemp(join(tmpdir(), 'tributary-web-profile-')))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: chromiumArgs,
    headless: true,
    viewport: { width: 1280, height: 900 },
    ...(options.webrtc === true ? { permissions: ['microphone', 'camera'] } : {}),
  })
  cleanups.push(async () => {
    await context.close()
    await rm(profile, { recursive: true, force: true })
  })
  const page = context.pages()[0] ?? (await context.newPage())
  return { context, page }
}

/**
 * Builds test/web/pages/<page> (an .html with its script) with Vite — workspace packages through
 * their `source` condition — into a temp dir, and serves it read-only on 127.0.0.1; returns its URL.
 */
export async function serveTestPage(page: string): Promise<string> {
  const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))
  const root = await mkdtemp(join(tmpdir(), 'tributary-web-page-'))
  const outDir = join(root, 'page')
  await build({
    configFile: false,
    root: pagesDir,
    cacheDir: join(root, 'vite-cache'),
    logLevel: 'warn',
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2023',
      // Keeps the 500 kB warning quiet: the page bundles libp2p, as the web app does.
      chunkSizeWarningLimit: 4096,
      rolldownOptions: { input: join(pagesDir, page) },
    },
  })
  const served = await servePages(outDir, page)
  cleanups.push(async () => {
    await served.close()
    await rm(root, { recursive: true, force: true })
  })
  return served.url
}

/** Opens the app served by `peer` and waits until it is online (connected and polled once). */
export async function openApp(page: Page, peer: PeerProcess, view = 'peers'): Promise<void> {
  await page.goto(`http://localhost:${peer.httpPort}/#${view}`)
  await page.locator('[data-testid="status"][data-state="online"]').waitFor({ timeout: 45_000 })
}

/** Switches the app to a view by its tab, as a user would (the page keeps its state and charts). */
export async function showView(page: Page, view: string): Promise<void> {
  await page.getByTestId(`tab-${view}`).click()
  await page.getByTestId(`view-${view}`).waitFor({ state: 'visible', timeout: 5_000 })
}

/** Saves a full-page screenshot as test-artifacts/web/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true })
  const path = join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  console.info(`screenshot: ${path}`)
  return path
}

/** Closes every browser and stops every peer these helpers started, newest first. */
export async function closeAll(): Promise<void> {
  const errors: unknown[] = []
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!()
    } catch (err) {
      errors.push(err)
    }
  }
  if (errors.length > 0) throw errors[0]
}
