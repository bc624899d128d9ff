/**
 * The static-member test's page (test/web/pages/static-member.ts) built with Vite — workspace
 * packages through the `source` condition — into a temp dir and served read-only on 127.0.0.1.
 */
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, defaultClientConditions } from 'vite'

const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))
const PAGE = 'static-member.html'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
}

export interface ServedPage {
  /** The page's URL, without a query string. */
  url: string
  close(): Promise<void>
}

/** Builds the page into `root` and serves it; close() stops the server. */
export async function buildAndServeStaticMemberPage(root: string): Promise<ServedPage> {
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
      rolldownOptions: { input: join(pagesDir, PAGE) },
    },
  })
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)
    if (path === '/favicon.ico') {
      res.writeHead(204).end()
      return
    }
    const file = resolve(outDir, `.${path}`)
    if (req.method !== 'GET' || !file.startsWith(outDir + sep)) {
      res.writeHead(404).end()
      return
    }
    readFile(file).then(
      (body) =>
        res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    )
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', done)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/${PAGE}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
