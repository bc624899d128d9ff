import '../../src/polyfills.js'
import { multiaddr } from '@multiformats/multiaddr'
import { afterEach, describe, expect, it } from 'vitest'
import { NodeSession, recordingLogger, tcpAddr, waitFor, wsAddr } from '../helpers.js'

describe('node > createMeshNode', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  it('listens on TCP and WebSockets on 127.0.0.1 with ephemeral ports', async () => {
    const node = await session.node()
    expect(node.status).toBe('started')
    const addrs = node.getMultiaddrs().map((ma) => ma.toString())
    expect(addrs).toHaveLength(2)
    for (const addr of addrs) expect(addr).toMatch(/^\/ip4\/127\.0\.0\.1\/tcp\/[1-9]\d*(\/ws)?\/p2p\/12D3/)
    expect(addrs.some((a) => a.includes('/ws/'))).toBe(true)
  })

  it('connects peers over TCP and over WebSockets (needs the ws polyfill on Node 20) and pings', async () => {
    const [a, b, c] = await Promise.all([session.node(), session.node(), session.node()])
    const overTcp = await b.dial(multiaddr(tcpAddr(a)))
    expect(overTcp.remoteAddr.toString()).not.toContain('/ws')
    const overWs = await c.dial(multiaddr(wsAddr(a)))
    expect(overWs.remoteAddr.toString()).toContain('/ws')
    expect(await c.services.ping.ping(a.peerId)).toBeGreaterThanOrEqual(0)
  })

  it('publishes on gossipsub with no subscribers yet without throwing', async () => {
    const node = await session.node({ wsPort: false })
    node.services.pubsub.subscribe('t')
    await expect(node.services.pubsub.publish('t', new Uint8Array([1]))).resolves.toBeDefined()
  })

  it('runs a circuit relay server', async () => {
    const node = await session.node()
    expect(node.getProtocols()).toContain('/libp2p/circuit/relay/0.2.0/hop')
  })

  it('dials bootstrap peers after start', async () => {
    const seed = await session.node({ wsPort: false })
    const joiner = await session.node({ wsPort: false, bootstrap: [tcpAddr(seed)] })
    const result = await joiner.services.bootstrap.done
    expect(result).toEqual({ connected: [tcpAddr(seed)], failed: [] })
    expect(joiner.getConnections(seed.peerId)).not.toHaveLength(0)
  })

  it('retries a bootstrap peer that is not up yet, with backoff, until it is', async () => {
    // Learn a free port and identity, then take the seed down before the joiner starts.
    const { mkdtemp, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dataDir = await mkdtemp(join(tmpdir(), 'tributary-seed-'))
    try {
      const first = await session.node({ wsPort: false, dataDir })
      const seedAddr = tcpAddr(first)
      const port = Number(seedAddr.split('/')[4])
      await first.stop()

      const logger = recordingLogger()
      const joiner = await session.node({
        wsPort: false,
        bootstrap: [seedAddr],
        bootstrapOptions: { attempts: 30, initialBackoffMs: 50, maxBackoffMs: 100, dialTimeoutMs: 1000 },
        logger,
      })
      const failedAttempts = () => logger.entries.filter((e) => e.msg === 'bootstrap dial failed').length
      await waitFor(() => failedAttempts() >= 2, { message: 'two failed bootstrap attempts' })
      const seed = await session.node({ wsPort: false, dataDir, tcpPort: port })
      expect(tcpAddr(seed)).toBe(seedAddr)
      expect((await joiner.services.bootstrap.done).connected).toEqual([seedAddr])
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('gives up after the configured attempts and reports the failure', async () => {
    const seed = await session.node({ wsPort: false })
    const seedAddr = tcpAddr(seed)
    await seed.stop()
    const joiner = await session.node({
      wsPort: false,
      bootstrap: [seedAddr],
      bootstrapOptions: { attempts: 3, initialBackoffMs: 10, maxBackoffMs: 20, dialTimeoutMs: 500 },
    })
    expect(await joiner.services.bootstrap.done).toEqual({ connected: [], failed: [seedAddr] })
  })

  it('stops bootstrap dialing when the node stops', async () => {
    const seed = await session.node({ wsPort: false })
    const seedAddr = tcpAddr(seed)
    await seed.stop()
    const joiner = await session.node({
      wsPort: false,
      bootstrap: [seedAddr],
      bootstrapOptions: { attempts: 1000, initialBackoffMs: 1000, maxBackoffMs: 1000 },
    })
    const started = Date.now()
    await joiner.stop()
    expect((await joiner.services.bootstrap.done).failed).toEqual([seedAddr])
    expect(Date.now() - started).toBeLessThan(1000)
  })
})
