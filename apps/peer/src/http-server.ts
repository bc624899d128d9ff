import { createServer, type Server } from 'node:http'
import type { Registry } from 'prom-client'

export interface HealthSource {
  peerId: string
  startedAtMs: number
  health(): Record<string, unknown>
}

/** `/health` (JSON, 200 while the peer runs) and Prometheus `/metrics`, on one port. */
export async function startHttpServer(
  host: string,
  port: number,
  source: HealthSource,
  registry: Registry,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
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
