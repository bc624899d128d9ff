/**
 * The page's connection states, in Chromium against a real peer process: connecting while the
 * bootstrap document is on its way, a clear error when it offers nothing to dial, online once
 * joined, offline when the only Node peer stops.
 */
import type { Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PeerProcess } from '../helpers/peer-process.ts'
import { buildWebApp, closeAll, openBrowser, screenshot, startWebPeer } from './page.ts'

describe('web app > connection states', () => {
  let peer: PeerProcess
  let page: Page

  beforeAll(async () => {
    await buildWebApp()
    peer = await startWebPeer()
    ;({ page } = await openBrowser())
  }, 120_000)

  afterAll(async () => {
    await closeAll()
  }, 60_000)

  it('connecting, then an error naming the problem when the bootstrap document has no address', async () => {
    let release: (route: Route) => void = () => {}
    const held = new Promise<Route>((resolve) => {
      release = resolve
    })
    await page.route('**/bootstrap.json', (route) => release(route))
    await page.goto(`http://localhost:${peer.httpPort}/`)
    expect(await status(page)).toMatchObject({ state: 'connecting' })
    const route = await held
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ peerId: peer.peerId, addresses: [] }),
    })
    await page.locator('[data-testid="status"][data-state="error"]').waitFor({ timeout: 20_000 })
    expect((await status(page)).text).toContain(`peer ${peer.peerId} offers no WebSocket address`)
    await screenshot(page, 'state-error')
    await page.unroute('**/bootstrap.json')
  }, 60_000)

  it('online once joined, offline when the only Node peer stops', async () => {
    await page.goto(`http://localhost:${peer.httpPort}/`)
    await page.locator('[data-testid="status"][data-state="online"]').waitFor({ timeout: 45_000 })
    expect((await status(page)).text).toContain(`…${peer.peerId.slice(-8)}`)
    await peer.stop('SIGTERM')
    await page.locator('[data-testid="status"][data-state="offline"]').waitFor({ timeout: 30_000 })
    expect((await status(page)).text).toMatch(/^(offline|lost the mesh)/)
    // The views keep the last data seen: the peer that stopped is still listed.
    expect(await page.locator(`[data-testid="peers-table"] tr[data-peer="${peer.peerId}"]`).count()).toBe(1)
    await screenshot(page, 'state-offline')
  }, 90_000)
})

async function status(page: Page): Promise<{ state: string | undefined; text: string }> {
  const el = page.getByTestId('status')
  return { state: (await el.getAttribute('data-state')) ?? undefined, text: (await el.textContent()) ?? '' }
}
