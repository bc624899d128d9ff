import type { Connection } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { describe, expect, it, vi } from 'vitest'
import { keepOneDirectConnection } from '../../src/browser/one-connection-per-peer.js'
import { silentLogger } from '../../src/logger.js'
import { connectionToKeep } from '../../src/rpc/connection-choice.js'

const LOW = '12D3KooWAVLrgTBHEYHhfGspGPhvGUVqqRNM3zTrSaFBXBS6sWXe'
const HIGH = '12D3KooWRUr3JpLPYLMUeTuDCchkjVnTjQhFiBpE6qRjxW8QhVmo'

interface FakeConnection extends Connection {
  closed: boolean
  aborted: boolean
}

function conn(remote: string, direction: 'inbound' | 'outbound', open: number, limited = false): FakeConnection {
  const c = {
    remotePeer: peerIdFromString(remote),
    direction,
    timeline: { open },
    limits: limited ? { bytes: 1n } : undefined,
    status: 'open',
    closed: false,
    aborted: false,
    close: async () => {
      c.closed = true
      c.status = 'closed'
    },
    abort: () => {
      c.aborted = true
      c.status = 'closed'
    },
  }
  return c as unknown as FakeConnection
}

describe('mesh > browser > one direct connection per peer', () => {
  it('keeps the connection the lower peer id opened, from either side', () => {
    expect(LOW < HIGH).toBe(true)
    // Seen from the lower peer: its outbound one, even when the inbound one is older.
    const fromLow = [conn(HIGH, 'inbound', 1), conn(HIGH, 'outbound', 2)]
    expect(connectionToKeep(LOW, fromLow)).toBe(fromLow[1])
    // Seen from the higher peer: the inbound one (opened by the lower peer).
    const fromHigh = [conn(LOW, 'outbound', 1), conn(LOW, 'inbound', 2)]
    expect(connectionToKeep(HIGH, fromHigh)).toBe(fromHigh[1])
  })

  it('keeps the oldest when the lower peer opened several, or opened none', () => {
    const twice = [conn(HIGH, 'outbound', 5), conn(HIGH, 'outbound', 3), conn(HIGH, 'inbound', 1)]
    expect(connectionToKeep(LOW, twice)).toBe(twice[1])
    const onlyHigher = [conn(HIGH, 'inbound', 9), conn(HIGH, 'inbound', 4)]
    expect(connectionToKeep(LOW, onlyHigher)).toBe(onlyHigher[1])
  })

  function fakeNode(self: string) {
    const connections: FakeConnection[] = []
    const events = new EventTarget()
    const node = {
      peerId: peerIdFromString(self),
      getConnections: () => connections.filter((c) => c.status === 'open'),
      addEventListener: events.addEventListener.bind(events),
      removeEventListener: events.removeEventListener.bind(events),
    }
    const open = (c: FakeConnection) => {
      connections.push(c)
      events.dispatchEvent(new CustomEvent('connection:open', { detail: c }))
    }
    return { node, open }
  }

  it('closes the duplicates once the kept connection answers, and leaves relayed ones alone', async () => {
    const { node, open } = fakeNode(LOW)
    const asked: FakeConnection[] = []
    const stop = keepOneDirectConnection(node as never, silentLogger, {
      answers: async (c) => {
        asked.push(c as FakeConnection)
        return undefined
      },
    })
    const relayed = conn(HIGH, 'inbound', 0, true)
    const inbound = conn(HIGH, 'inbound', 1)
    open(relayed)
    open(inbound)
    await vi.waitFor(() => expect(asked).toHaveLength(0))
    expect(inbound.closed).toBe(false)
    const outbound = conn(HIGH, 'outbound', 2)
    open(outbound)
    await vi.waitFor(() => expect(inbound.closed).toBe(true))
    expect(asked).toEqual([outbound])
    expect(outbound.closed).toBe(false)
    expect(relayed.closed).toBe(false)
    stop()
    const late = conn(HIGH, 'outbound', 3)
    open(late)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(late.closed).toBe(false)
  })

  it('aborts the chosen connection when its remote end does not answer, and keeps the working one', async () => {
    // Seen from the higher peer: the lower one's dial (inbound here) completed on this side only.
    const { node, open } = fakeNode(HIGH)
    const own = conn(LOW, 'outbound', 1)
    const halfOpen = conn(LOW, 'inbound', 2)
    keepOneDirectConnection(node as never, silentLogger, {
      answers: async (c) => (c === halfOpen ? new Error('no answer') : undefined),
    })
    open(own)
    open(halfOpen)
    await vi.waitFor(() => expect(halfOpen.aborted).toBe(true))
    expect(own.closed).toBe(false)
    expect(own.aborted).toBe(false)
  })

  it('closes a connection that opens while the chosen one is being checked too', async () => {
    const { node, open } = fakeNode(LOW)
    const checks: Array<() => void> = []
    keepOneDirectConnection(node as never, silentLogger, {
      answers: (_c) => new Promise<undefined>((resolve) => checks.push(() => resolve(undefined))),
    })
    const a = conn(HIGH, 'inbound', 1)
    const b = conn(HIGH, 'outbound', 2)
    const c = conn(HIGH, 'outbound', 3)
    open(a)
    open(b)
    open(c)
    // One check at a time per peer: the third connection waits for the first check, and is
    // closed with the other duplicate once the kept one has answered.
    await vi.waitFor(() => expect(checks).toHaveLength(1))
    expect(a.closed || c.closed).toBe(false)
    checks[0]!()
    await vi.waitFor(() => expect(a.closed && c.closed).toBe(true))
    expect(checks).toHaveLength(1)
    expect(b.closed).toBe(false)
  })
})
