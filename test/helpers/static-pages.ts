/**
 * Serves a directory of built pages (a Vite build's outDir) read-only on 127.0.0.1 at a free port,
 * for Playwright-driven tests and benchmarks: GET only, nothing outside the directory, the
 * content types a Vite build emits, 404 for the rest.
 */
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, resolve, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
}

export interface ServedPages {
  /** The URL of `page` (also what `/` serves). */
  url: string
  close(): Promise<void>
}

export async function servePages(root: string, page: string): Promise<ServedPages> {
  const base = resolve(root)
  const server = http.createServer((req, res) => {
    let path: string
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)
    } catch {
      res.writeHead(400).end()
      return
    }
    if (path === '/favicon.ico') {
      res.writeHead(204).end()
      return
    }
    const file = resolve(base, `.${path === '/' ? `/${page}` : path}`)
    if (req.method !== 'GET' || !file.startsWith(base + sep)) {
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
    url: `http://127.0.0.1:${port}/${page}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
