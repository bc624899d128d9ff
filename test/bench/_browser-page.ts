/**
 * The browser benchmark's page: test/bench/pages/browser.ts built with Vite (workspace packages
 * through the `source` condition) into a temp dir and served read-only on 127.0.0.1.
 */
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, defaultClientConditions } from 'vite'

const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))
const PAGE = 'browser.html'

export async function buildBrowserPage(outDir: string, cacheDir: string): Promise<void> {
  await build({
    configFile: false,
    root: pagesDir,
    cacheDir,
    logLevel: 'warn',
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2023',
      // Readable function names in --profile's CPU profiles; the speed of the code is the same.
      minify: false,
      chunkSizeWarningLimit: 8192,
      rolldownOptions: { input: join(pagesDir, PAGE) },
    },
  })
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
}

/** Serves `root` on 127.0.0.1 at a free port; `url` is the page. */
export async function serveBrowserPage(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)
    if (path === '/favicon.ico') {
      res.writeHead(204).end()
      return
    }
    const file = resolve(root, `.${path === '/' ? `/${PAGE}` : path}`)
    if (req.method !== 'GET' || !file.startsWith(root + sep)) {
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
