import { MetadataEntry, MetadataSnapshot } from '@tributary/wire/pb/metadata'
import { describe, expect, it } from 'vitest'
import {
  decodeEntry,
  decodeSnapshot,
  type Entry,
  encodeEntry,
  encodeSnapshot,
  HybridLogicalClock,
  InvalidMetadataError,
  MAX_SNAPSHOT_ENTRIES,
  MAX_VALUE_BYTES,
  MetadataStore,
} from '../../src/metadata/index.js'
import { Rng } from './simulation.js'

const live: Entry = {
  key: 'topic/orders',
  value: new Uint8Array([1, 2, 3]),
  hlc: { wallMs: 1_700_000_000_123, logical: 4 },
  origin: 'peer-a',
}
const empty: Entry = { key: 'k', value: new Uint8Array(0), hlc: { wallMs: 5, logical: 0 }, origin: 'peer-b' }
const tombstone: Entry = { key: 'gone', value: null, hlc: { wallMs: 6, logical: 1 }, origin: 'peer-c' }

/** A decode either returns valid entries or throws InvalidMetadataError; anything else is a bug. */
function outcome(decode: () => unknown): 'ok' | 'invalid' {
  try {
    decode()
    return 'ok'
  } catch (err) {
    if (err instanceof InvalidMetadataError) return 'invalid'
    throw err
  }
}

describe('mesh > metadata > codec', () => {
  it('round-trips entries, keeping empty values and tombstones apart', () => {
    for (const e of [live, empty, tombstone]) expect(decodeEntry(encodeEntry(e))).toEqual(e)
    expect(decodeEntry(encodeEntry(empty)).value).toEqual(new Uint8Array(0))
    expect(decodeEntry(encodeEntry(tombstone)).value).toBeNull()
  })

  it('round-trips snapshots', () => {
    expect(decodeSnapshot(encodeSnapshot([live, empty, tombstone]))).toEqual([live, empty, tombstone])
    expect(decodeSnapshot(encodeSnapshot([]))).toEqual([])
  })

  it('decoded values do not pin the received buffer', () => {
    const bytes = encodeEntry(live)
    const decoded = decodeEntry(bytes)
    expect(decoded.value?.buffer).not.toBe(bytes.buffer)
  })

  it('encoding refuses what decoding would refuse', () => {
    expect(() => encodeEntry({ ...live, key: '' })).toThrow(InvalidMetadataError)
    expect(() => encodeSnapshot([live, { ...live, origin: '' }])).toThrow(InvalidMetadataError)
  })

  it('refuses decoded entries that break a limit', () => {
    const raw = (overrides: Partial<MetadataEntry>): Uint8Array =>
      MetadataEntry.encode({ key: 'k', wallMs: 1, logical: 0, origin: 'p', ...overrides })
    expect(() => decodeEntry(raw({ key: 'x'.repeat(513) }))).toThrow(/longer than 512/)
    expect(() => decodeEntry(raw({ value: new Uint8Array(MAX_VALUE_BYTES + 1) }))).toThrow(/limit is 1048576/)
    // wall_ms (field 3) = 2^53, just past a safe integer: hand-encoded, as protons refuses to write it.
    const unsafe = new Uint8Array([...raw({}), 0x18, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10])
    expect(() => decodeEntry(unsafe)).toThrow(InvalidMetadataError)
    const huge = new Uint8Array([...raw({}), 0x18, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])
    expect(() => decodeEntry(huge)).toThrow(InvalidMetadataError)
    expect(() => decodeEntry(raw({ origin: '' }))).toThrow(InvalidMetadataError)
    expect(() => decodeEntry(raw({ key: '' }))).toThrow(InvalidMetadataError)
  })

  it('refuses a snapshot with more entries than the limit without decoding them all', () => {
    // Each `0a 00` is an empty MetadataEntry: 100,001 of them cost 200 kB to send.
    const count = MAX_SNAPSHOT_ENTRIES + 1
    const bytes = new Uint8Array(count * 2)
    for (let i = 0; i < count; i++) bytes[2 * i] = 0x0a
    expect(() => decodeSnapshot(bytes)).toThrow(/too many elements/)
    const small = MetadataSnapshot.encode({
      entries: [1, 2, 3].map((i) => ({ key: `k${i}`, wallMs: 1, logical: 0, origin: 'p' })),
    })
    expect(() => decodeSnapshot(small, { maxEntries: 2 })).toThrow(InvalidMetadataError)
    expect(decodeSnapshot(small, { maxEntries: 3 })).toHaveLength(3)
  })

  it('refuses length prefixes that claim more bytes than were sent', () => {
    // key: field 1, length 2^31 - 1, then nothing.
    expect(() => decodeEntry(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x07]))).toThrow(InvalidMetadataError)
    // snapshot entry claiming 1 GiB
    expect(() => decodeSnapshot(new Uint8Array([0x0a, 0x80, 0x80, 0x80, 0x80, 0x04]))).toThrow(InvalidMetadataError)
  })

  it('survives deeply nested groups without crashing', () => {
    const bytes = new Uint8Array(200_000).fill(0x0b) // field 1, wire type 3 (start group), over and over
    expect(outcome(() => decodeSnapshot(bytes))).toBe('invalid')
    expect(outcome(() => decodeEntry(bytes))).toBe('invalid')
  })

  it('random bytes decode to valid entries or InvalidMetadataError, never a crash', () => {
    const rng = new Rng(7)
    let invalid = 0
    for (let i = 0; i < 3_000; i++) {
      const bytes = rng.bytes(rng.int(0, 64))
      if (outcome(() => decodeEntry(bytes)) === 'invalid') invalid++
      if (outcome(() => decodeSnapshot(bytes)) === 'invalid') invalid++
    }
    expect(invalid).toBeGreaterThan(1_000)
  })

  it('mutated valid snapshots decode or fail cleanly, and never change a store when refused', () => {
    const rng = new Rng(11)
    const valid = encodeSnapshot([live, empty, tombstone])
    const store = new MetadataStore({
      peerId: 'me',
      clock: new HybridLogicalClock({ wallClock: () => 1_700_000_000_000 }),
    })
    for (let i = 0; i < 2_000; i++) {
      const bytes = valid.slice(0, rng.int(0, valid.length))
      for (let flips = rng.int(1, 3); flips > 0 && bytes.length > 0; flips--) {
        bytes[rng.int(0, bytes.length - 1)] = rng.int(0, 255)
      }
      const before = store.snapshot()
      try {
        store.mergeSnapshot(decodeSnapshot(bytes))
      } catch (err) {
        if (!(err instanceof InvalidMetadataError) && (err as Error).name !== 'ClockDriftError') throw err
        expect(store.snapshot()).toEqual(before)
      }
    }
  })
})
