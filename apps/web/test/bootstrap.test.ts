import { describe, expect, it } from 'vitest'
import { BootstrapError, parseBootstrap } from '../src/bootstrap.js'

describe('web > bootstrap document', () => {
  it('keeps the dialable addresses', () => {
    expect(
      parseBootstrap({ peerId: 'P', addresses: ['/ip4/127.0.0.1/tcp/4002/ws/p2p/P', 'not-an-address', 42] }),
    ).toEqual({ peerId: 'P', addresses: ['/ip4/127.0.0.1/tcp/4002/ws/p2p/P'] })
  })

  it('rejects what a page cannot join through, saying why', () => {
    expect(() => parseBootstrap(null)).toThrow(BootstrapError)
    expect(() => parseBootstrap({ addresses: [] })).toThrow(/no peerId/)
    expect(() => parseBootstrap({ peerId: 'P', addresses: ['/ip4/127.0.0.1/tcp/4002/ws'] })).toThrow(
      /no WebSocket address with \/p2p\//,
    )
    expect(() =>
      parseBootstrap({ peerId: 'P', addresses: Array.from({ length: 65 }, () => '/ip4/1.2.3.4/tcp/1/ws/p2p/P') }),
    ).toThrow(/at most 64/)
  })
})
