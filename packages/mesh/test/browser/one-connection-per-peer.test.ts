import type { Connection } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { describe, expect, it } from 'vitest'
import { connectionToKeep, keepOneDirectConnection } from '../../src/browser/one-connection-per-peer.js'
import { silentLogger } from '../../src/logger.js'

const LOW = '12D3KooWAVLrgTBHEYHhfGspGPhvGUVqqRNM3zTrSaFBXBS6sWXe'
const HIGH = '12D3KooWRUr3JpLPYLMUeTuDCchkjVnTjQhFiBpE6qRjxW8QhVmo'

interface FakeConnection extends Connection {
  closed: boolean
}

function conn(remote: string, direction: 'inbound' | 'outbound', open: number, limited = false): FakeConnection {
  const c = {
    remotePeer: peerIdFromString(remote),
    direction,
    timeline: { open },
    limits: limited ? { bytes: 1n } : undefined,
    status: 'open',
    closed: false,
    close: async () => {
      c.closed = true
      c.status = 'closed'
    },
    abort: () => {},
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

  it('closes the duplicates when a second direct connection opens, and leaves relayed ones alone', () => {
    const connections: FakeConnection[] = []
    const events = new EventTarget()
    const node = {
      peerId: peerIdFromString(LOW),
      getConnections: () => connections.filter((c) => c.status === 'open'),
      addEventListener: events.addEventListener.bind(events),
      removeEventListener: events.removeEventListener.bind(events),
    }
    const stop = keepOneDirectConnection(node as never, silentLogger)
    const open = (c: FakeConnection) => {
      connections.push(c)
      events.dispatchEvent(new CustomEvent('connection:open', { detail: c }))
    }
    const relayed = conn(HIGH, 'inbound', 0, true)
    const inbound = conn(HIGH, 'inbound', 1)
    open(relayed)
    open(inbound)
    expect(inbound.closed).toBe(false)
    const outbound = conn(HIGH, 'outbound', 2)
    open(outbound)
    expect(inbound.closed).toBe(true)
    expect(outbound.closed).toBe(false)
    expect(relayed.closed).toBe(false)
    stop()
    const late = conn(HIGH, 'outbound', 3)
    open(late)
    expect(late.closed).toBe(false)
  })
})
