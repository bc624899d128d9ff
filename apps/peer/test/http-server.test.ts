/**
 * The peer's HTTP port serves the built web app and /bootstrap.json: files by path with their
 * MIME types, nothing outside the app's directory whatever the path says, 404s, HEAD, and the
 * WebSocket addresses a page can dial.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry } from 'prom-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootstrapDocument } from '../src/bootstrap-doc.js'
import { startHttpServer } from '../src/http-server.js'

const PEER = '12D3KooWTestPeer'
const ADDRESSES = [
  `/ip4/127.0.0.1/tcp/4001/p2p/${PEER}`,
  `/ip4/127.0.0.1/tcp/4002/ws/p2p/${PEER}`,
  `/ip4/192.168.1.20/tcp/4002/ws/p2p/${PEER}`,
  `/ip4/192.168.1.20/tcp/4001/p2p/${PEER}`,
]

/** A raw GET or HEAD: the path goes on the wire exactly as given (fetch would normalize `..`). */
function get(
  port: number,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; type: string | undefined; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `localhost:${port}` },
        timeout: 5_000,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (d: string) => {
          body += d
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body, headers: res.headers }),
        )
      },
    )
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)))
    req.on('error', reject)
    req.end()
  })
}

describe('peer http > web app and bootstrap', () => {
  let dir: string
  let server: Awaited<ReturnType<typeof startHttpServer>>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tributary-http-'))
    const root = join(dir, 'dist')
    await mkdir(join(root, 'assets'), { recursive: true })
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>')
    await writeFile(join(root, 'assets', 'index-abc.js'), 'console.log(1)')
    await writeFile(join(root, 'assets', 'index-abc.css'), 'body{}')
    await writeFile(join(root, 'assets', 'blob.bin'), 'x')
    await writeFile(join(dir, 'secret.txt'), 'outside the web root')
    await symlink(join(dir, 'secret.txt'), join(root, 'link-out.txt'))
    server = await startHttpServer(
      '127.0.0.1',
      0,
      { peerId: PEER, startedAtMs: Date.now(), health: () => ({}), addresses: () => ADDRESSES },
      new Registry(),
      { webRoot: root },
    )
  })

  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves the app at / and its assets with their MIME types and cache rules', async () => {
    const index = await get(server.port, '/')
    expect(index).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><title>app</title>',
    })
    expect(index.headers['cache-control']).toBe('no-cache')
    const js = await get(server.port, '/assets/index-abc.js?v=1')
    expect(js).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8', body: 'console.log(1)' })
    expect(js.headers['cache-control']).toContain('immutable')
    expect((await get(server.port, '/assets/index-abc.css')).type).toBe('text/css; charset=utf-8')
    expect((await get(server.port, '/assets/blob.bin')).type).toBe('application/octet-stream')
    const head = await get(server.port, '/index.html', { method: 'HEAD' })
    expect(head).toMatchObject({ status: 200, body: '' })
    expect(head.headers['content-length']).toBe(String('<!doctype html><title>app</title>'.length))
  })

  it('answers 404 for missing files and never serves a file outside the web root', async () => {
    expect((await get(server.port, '/nope.js')).status).toBe(404)
    expect((await get(server.port, '/assets')).status).toBe(404) // a directory without index.html
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/link-out.txt',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const res = await get(server.port, path)
      expect([400, 404], path).toContain(res.status)
      expect(res.body, path).not.toContain('outside the web root')
    }
    expect((await get(server.port, `/${'a'.repeat(2000)}`)).status).toBe(414)
    expect((await get(server.port, '/', { method: 'POST' })).status).toBe(405)
  })

  it('keeps /health beside the app', async () => {
    const health = await get(server.port, '/health')
    expect(health.status).toBe(200)
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok', peerId: PEER })
  })

  it('gives a page on localhost the loopback WebSocket addresses', async () => {
    const res = await get(server.port, '/bootstrap.json')
    expect(res).toMatchObject({ status: 200, type: 'application/json' })
    expect(JSON.parse(res.body)).toEqual({ peerId: PEER, addresses: [`/ip4/127.0.0.1/tcp/4002/ws/p2p/${PEER}`] })
  })

  it('gives a page opened by another address the WebSocket addresses on it first', () => {
    expect(bootstrapDocument(PEER, ADDRESSES, '192.168.1.20:4080').addresses).toEqual([
      `/ip4/192.168.1.20/tcp/4002/ws/p2p/${PEER}`,
      `/ip4/127.0.0.1/tcp/4002/ws/p2p/${PEER}`,
    ])
    // Addresses without /p2p/ get it; TCP and relayed addresses are not for a page to dial.
    expect(
      bootstrapDocument(
        PEER,
        ['/ip4/127.0.0.1/tcp/4002/ws', `/ip4/127.0.0.1/tcp/4002/ws/p2p/X/p2p-circuit/p2p/${PEER}`],
        undefined,
      ).addresses,
    ).toEqual([`/ip4/127.0.0.1/tcp/4002/ws/p2p/${PEER}`])
  })
})

describe('peer http > without a built app', () => {
  it('says how to build it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-http-empty-'))
    const server = await startHttpServer(
      '127.0.0.1',
      0,
      { peerId: PEER, startedAtMs: Date.now(), health: () => ({}), addresses: () => ADDRESSES },
      new Registry(),
      { webRoot: join(dir, 'missing') },
    )
    try {
      const res = await get(server.port, '/')
      expect(res.status).toBe(404)
      expect(res.body).toContain('web app is not built')
    } finally {
      await server.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
