import { Heartbeat } from '@tributary/wire/pb/membership'
import { describe, expect, it } from 'vitest'
import { MAX_HEARTBEAT_ADDRESSES, MAX_HEARTBEAT_BYTES } from '../../src/constants.js'
import { decodeHeartbeat, encodeHeartbeat, InvalidHeartbeatError } from '../../src/membership/heartbeat.js'

const A = '12D3KooWRBy97UB99e3J6hiPesre1MZeuNQvfan4gBziswrRJsNK'
const B = '12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo'

function valid(overrides: Partial<Heartbeat> = {}): Heartbeat {
  return {
    peerId: A,
    incarnation: 7n,
    seq: 1n,
    roles: { voter: true, observer: false },
    storage: 'fs',
    version: '0.1.0',
    addresses: [`/ip4/127.0.0.1/tcp/4001/p2p/${A}`],
    leaving: false,
    ...overrides,
  }
}

describe('membership > heartbeat validation', () => {
  it('round-trips a heartbeat signed by its sender', () => {
    const bytes = encodeHeartbeat({ ...valid(), roles: { voter: true, observer: false }, storage: 'fs' })
    expect(decodeHeartbeat(bytes, A)).toEqual({ ...valid(), roles: { voter: true, observer: false } })
  })

  it('adds the sender to addresses that lack /p2p/', () => {
    const hb = decodeHeartbeat(Heartbeat.encode(valid({ addresses: ['/ip4/127.0.0.1/tcp/1'] })), A)
    expect(hb.addresses).toEqual([`/ip4/127.0.0.1/tcp/1/p2p/${A}`])
  })

  const invalid: Array<[string, () => Uint8Array]> = [
    ['a heartbeat signed by another peer', () => Heartbeat.encode(valid({ peerId: B }))],
    ['an address of another peer', () => Heartbeat.encode(valid({ addresses: [`/ip4/1.2.3.4/tcp/1/p2p/${B}`] }))],
    ['an address that is not a multiaddr', () => Heartbeat.encode(valid({ addresses: ['not/an addr'] }))],
    ['an unknown storage kind', () => Heartbeat.encode(valid({ storage: 'tape' }))],
    ['a missing incarnation', () => Heartbeat.encode(valid({ incarnation: 0n }))],
    ['an oversize message', () => new Uint8Array(MAX_HEARTBEAT_BYTES + 1)],
    ['bytes that are not protobuf', () => new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff])],
    [
      'too many addresses',
      () =>
        Heartbeat.encode(
          valid({ addresses: Array.from({ length: MAX_HEARTBEAT_ADDRESSES + 1 }, () => '/ip4/1.1.1.1/tcp/1') }),
        ),
    ],
    ['a version string that is too long', () => Heartbeat.encode(valid({ version: 'v'.repeat(1000) }))],
  ]
  for (const [name, bytes] of invalid) {
    it(`rejects ${name}`, () => {
      expect(() => decodeHeartbeat(bytes(), A)).toThrow(InvalidHeartbeatError)
    })
  }
})
