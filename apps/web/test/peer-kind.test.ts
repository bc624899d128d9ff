import { describe, expect, it } from 'vitest'
import { describeLink, describeMember, transportOf } from '../src/peer-kind.js'

const base = { peerId: 'P', voter: true, storage: 'fs', status: 'alive', version: '0.1.0' }

describe('web > peer rows', () => {
  it('a Node peer: files, TCP and WebSockets, a voter, direct', () => {
    expect(
      describeMember({ ...base, addresses: ['/ip4/127.0.0.1/tcp/4001/p2p/P', '/ip4/127.0.0.1/tcp/4002/ws/p2p/P'] }),
    ).toMatchObject({ kind: 'node', transports: ['tcp', 'ws'], role: 'voter', connection: 'direct' })
  })

  it('a browser peer: IndexedDB, an observer, reachable only through a relay', () => {
    expect(
      describeMember({
        ...base,
        voter: false,
        storage: 'idb',
        addresses: ['/ip4/127.0.0.1/tcp/4002/ws/p2p/R/p2p-circuit/webrtc/p2p/P'],
      }),
    ).toMatchObject({ kind: 'browser', transports: ['webrtc'], role: 'observer', connection: 'relayed' })
    expect(
      describeMember({ ...base, storage: 'idb', addresses: ['/ip4/127.0.0.1/tcp/4002/ws/p2p/R/p2p-circuit/p2p/P'] })
        .transports,
    ).toEqual(['relay'])
  })

  it('the transport of an address is what follows a relay circuit', () => {
    expect(transportOf('/ip4/127.0.0.1/tcp/4001/p2p/P')).toBe('tcp')
    expect(transportOf('/ip4/127.0.0.1/tcp/4002/ws/p2p/P')).toBe('ws')
    expect(transportOf('/dns4/example.org/tcp/443/wss/p2p/P')).toBe('wss')
    expect(transportOf('/ip4/127.0.0.1/tcp/4002/ws/p2p/R/p2p-circuit/p2p/P')).toBe('relay')
    expect(transportOf('/ip4/127.0.0.1/tcp/4002/ws/p2p/R/p2p-circuit/webrtc/p2p/P')).toBe('webrtc')
  })

  it("this tab's links: each transport once, relayed ones marked", () => {
    expect(describeLink([])).toBe('not connected')
    expect(
      describeLink([
        '/ip4/127.0.0.1/tcp/4002/ws/p2p/P',
        '/ip4/127.0.0.1/tcp/4002/ws/p2p/P',
        '/ip4/127.0.0.1/tcp/4002/ws/p2p/R/p2p-circuit/p2p/P',
      ]),
    ).toBe('relayed, ws direct')
    expect(describeLink(['/ip4/127.0.0.1/tcp/4002/ws/p2p/R/p2p-circuit/webrtc/p2p/P'])).toBe('webrtc direct')
  })

  it('no addresses: connection unknown', () => {
    expect(describeMember({ ...base, addresses: [] })).toMatchObject({ transports: [], connection: 'unknown' })
  })
})
