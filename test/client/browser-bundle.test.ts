/**
 * The client bundles for browsers: a Vite build of an app importing @tributary/client with the
 * browser conditions succeeds, picks the browser light node (WebSockets, WebRTC, relays), and
 * pulls in no Node built-in and no TCP transport. Running it in Chromium against a Node peer is
 * the browser end-to-end suite's job.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, defaultClientConditions, type Rolldown } from 'vite'
import { afterAll, describe, expect, it } from 'vitest'

const dirs: string[] = []
/** The app lives in a temp dir; the package is found where a workspace links it. */
const clientEntry = fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url))

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('client > browser bundle', () => {
  it('builds for the browser without Node built-ins or the TCP transport', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tributary-client-bundle-'))
    dirs.push(root)
    await mkdir(join(root, 'src'))
    await writeFile(
      join(root, 'src', 'main.ts'),
      [
        "import { Tributary } from '@tributary/client'",
        'export async function start(bootstrap: string) {',
        '  const mesh = await Tributary.connect({ bootstrap: [bootstrap], node: { allowInsecureWebSockets: true } })',
        "  await mesh.producer().send({ topic: 't', messages: [{ key: 'k', value: 'v' }] })",
        '  return mesh',
        '}',
      ].join('\n'),
    )
    const result = await build({
      configFile: false,
      root,
      cacheDir: join(root, '.vite'),
      logLevel: 'silent',
      resolve: {
        conditions: ['source', ...defaultClientConditions],
        alias: { '@tributary/client': clientEntry },
      },
      build: {
        write: false,
        target: 'es2023',
        minify: false,
        lib: { entry: join(root, 'src', 'main.ts'), formats: ['es'], fileName: 'main' },
      },
    })
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[]
    const code = outputs
      .flatMap((o) => o.output)
      .map((chunk) => (chunk.type === 'chunk' ? chunk.code : ''))
      .join('\n')
    expect(code.length).toBeGreaterThan(0)
    // Without minification each bundled module is introduced by a `// <path>` line.
    const modules = [...code.matchAll(/^\/\/ ((?:node_modules|packages)\/\S+)$/gm)].map((m) => m[1]!)
    expect(modules).toContain('packages/client/src/node/light-node.browser.ts')
    expect(modules).not.toContain('packages/client/src/node/light-node.ts')
    expect(modules.filter((m) => m.startsWith('node_modules/@libp2p/tcp/'))).toEqual([])
    expect(modules.filter((m) => m.startsWith('node_modules/ws/'))).toEqual([])
    expect(modules).toContain('packages/wire/src/crc32c-js.ts')
    expect(modules).toContain('packages/wire/src/gzip-web.ts')
    // No Node built-in is imported by anything bundled.
    expect(code).not.toMatch(/(?:from|import\(|require\()\s*['"]node:/)
    expect(code).not.toContain('__vite-browser-external') // what Vite substitutes for a Node built-in
  }, 120_000)
})
