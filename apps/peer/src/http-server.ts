import { createServer, type Server } from 'node:http'
import type { Registry } from 'prom-client'
import { bootstrapDocument } from './bootstrap-doc.js'
import { serveStatic } from './web-static.js'

export interface HealthSource {
  peerId: string
  startedAtMs: number
  health(): Record<string, unknown>
  /** The peer's current multiaddrs, for `/bootstrap.json`. */
  addresses(): string[]
}

export interface HttpServerOptions {
  /** The built web app (apps/web/dist), served at `/`; without it only the JSON endpoints answer. */
  webRoot?: string
}

/**
 * One port for operators and browsers: `/health` (JSON, 200 while the peer runs), Prometheus
 * `/metrics`, `/bootstrap.json` (the WebSocket multiaddrs a page dials to join the mesh) and the
 * web app's files at every other path.
 */
export async function startHttpServer(
  host: string,
  port: number,
  source: HealthSource,
  registry: Registry,
  options: HttpServerOptions = {},
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    if (path === '/health') {
      const body = JSON.stringify({
        status: 'ok',
        peerId: source.peerId,
        uptimeMs: Date.now() - source.startedAtMs,
        ...source.health(),
      })
      res.writeHead(200, { 'content-type': 'application/json' }).end(body)
      return
    }
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500).end('metrics unavailable\n'),
      )
      return
    }
    if (path === '/bootstrap.json') {
      const body = JSON.stringify(bootstrapDocument(source.peerId, source.addresses(), req.headers.host))
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body)
      return
    }
    if (options.webRoot !== undefined) {
      serveStatic(options.webRoot, path, req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end('could not read the file\n')
      })
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
  })
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : port
  return {
    server,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
