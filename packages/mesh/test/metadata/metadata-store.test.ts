import { describe, expect, it } from 'vitest'
import {
  ClockDriftError,
  type Entry,
  HybridLogicalClock,
  InvalidMetadataError,
  MAX_VALUE_BYTES,
  MetadataStore,
} from '../../src/metadata/index.js'

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)
const text = (value: Uint8Array | null | undefined): string | null | undefined =>
  value == null ? value : new TextDecoder().decode(value)

function storeAt(peerId: string, now = { ms: 1_000_000 }, maxEntries?: number): MetadataStore {
  const clock = new HybridLogicalClock({ wallClock: () => now.ms })
  return new MetadataStore({ peerId, clock, ...(maxEntries === undefined ? {} : { maxEntries }) })
}

function entry(key: string, value: string | null, wallMs: number, origin: string, logical = 0): Entry {
  return { key, value: value === null ? null : bytes(value), hlc: { wallMs, logical }, origin }
}

describe('mesh > metadata > store', () => {
  it('set/get/delete stamp local entries with increasing timestamps', () => {
    const store = storeAt('a')
    const first = store.set('k', bytes('1'))
    const second = store.set('k', bytes('2'))
    expect(first.origin).toBe('a')
    expect(second.hlc.logical).toBe(first.hlc.logical + 1)
    expect(text(store.get('k')?.value)).toBe('2')
    const tombstone = store.delete('k')
    expect(tombstone.value).toBeNull()
    expect(store.get('k')).toBe(tombstone)
    expect(store.entries()).toEqual([])
    expect(store.snapshot()).toEqual([tombstone])
  })

  it('keeps a private copy of values', () => {
    const store = storeAt('a')
    const value = bytes('abc')
    store.set('k', value)
    value[0] = 0x7a
    expect(text(store.get('k')?.value)).toBe('abc')
  })

  it('merge() takes newer entries and refuses older or equal ones', () => {
    const store = storeAt('a')
    expect(store.merge(entry('k', 'v1', 1_000, 'b'))).toBe(true)
    expect(store.merge(entry('k', 'v0', 999, 'b'))).toBe(false)
    expect(store.merge(entry('k', 'v1', 1_000, 'b'))).toBe(false) // duplicate delivery
    expect(store.merge(entry('k', 'v2', 1_000, 'b', 1))).toBe(true)
    expect(text(store.get('k')?.value)).toBe('v2')
  })

  it('breaks HLC ties by origin peer id, identically in both arrival orders', () => {
    const fromB = entry('k', 'from-b', 1_000, 'peer-b')
    const fromC = entry('k', 'from-c', 1_000, 'peer-c')
    const one = storeAt('a')
    one.merge(fromB)
    one.merge(fromC)
    const two = storeAt('a')
    two.merge(fromC)
    two.merge(fromB)
    expect(text(one.get('k')?.value)).toBe('from-c')
    expect(two.get('k')).toEqual(one.get('k'))
  })

  it('a tombstone beats an older live entry that arrives after it', () => {
    const store = storeAt('a')
    store.merge(entry('k', null, 2_000, 'b'))
    expect(store.merge(entry('k', 'stale', 1_000, 'c'))).toBe(false)
    expect(store.get('k')?.value).toBeNull()
  })

  it('local writes order after everything merged, even from a peer whose clock is ahead', () => {
    const now = { ms: 1_000 }
    const store = storeAt('a', now)
    store.merge(entry('k', 'remote', 30_000, 'z'))
    const local = store.set('k', bytes('local'))
    expect(local.hlc.wallMs).toBe(30_000)
    expect(text(store.get('k')?.value)).toBe('local')
  })

  it('entries(prefix) lists live entries under a prefix, sorted by key', () => {
    const store = storeAt('a')
    store.set('topic/b', bytes('1'))
    store.set('topic/a', bytes('2'))
    store.set('other', bytes('3'))
    store.set('topic/c', bytes('4'))
    store.delete('topic/c')
    expect(store.entries('topic/').map((e) => e.key)).toEqual(['topic/a', 'topic/b'])
    expect(store.snapshot().map((e) => e.key)).toEqual(['other', 'topic/a', 'topic/b', 'topic/c'])
  })

  it('onChange reports real changes only, with the previous entry, and unsubscribes', () => {
    const store = storeAt('a')
    const seen: [string, string | null | undefined, string | null | undefined][] = []
    const off = store.onChange((key, e, previous) => seen.push([key, text(e.value), text(previous?.value)]))
    store.set('k', bytes('1'))
    store.merge(entry('k', 'old', 1, 'b')) // loses: no event
    store.merge(entry('k', 'new', 1_000_500, 'b'))
    store.mergeSnapshot([entry('k', 'new', 1_000_500, 'b')]) // duplicate: no event
    store.delete('k')
    off()
    store.set('k', bytes('unheard'))
    expect(seen).toEqual([
      ['k', '1', undefined],
      ['k', 'new', '1'],
      ['k', null, 'new'],
    ])
  })

  it('delivers changes in order even when a listener writes to the store', () => {
    const store = storeAt('a')
    const order: string[] = []
    store.onChange((key) => {
      if (key === 'first') store.set('second', bytes('x'))
    })
    store.onChange((key) => order.push(key))
    store.set('first', bytes('x'))
    expect(order).toEqual(['first', 'second'])
  })

  it('a throwing listener neither stops the others nor undoes the change', () => {
    const store = storeAt('a')
    const heard: string[] = []
    store.onChange(() => {
      throw new Error('listener bug')
    })
    store.onChange((key) => heard.push(key))
    expect(() => store.set('k', bytes('v'))).not.toThrow()
    expect(heard).toEqual(['k'])
    expect(store.get('k')).toBeDefined()
  })

  it('mergeSnapshot() converges two stores and counts what changed', () => {
    const a = storeAt('a')
    const b = storeAt('b')
    a.set('x', bytes('a'))
    b.set('y', bytes('b'))
    b.delete('z')
    expect(a.mergeSnapshot(b.snapshot())).toBe(2)
    expect(b.mergeSnapshot(a.snapshot())).toBe(1)
    expect(a.snapshot()).toEqual(b.snapshot())
  })

  it('refuses invalid entries without changing anything', () => {
    const store = storeAt('a')
    store.set('k', bytes('keep'))
    const before = store.snapshot()
    const clockBefore = store.clock.peek()
    const invalid: Entry[] = [
      entry('', 'v', 1, 'b'),
      entry('x'.repeat(513), 'v', 1, 'b'),
      entry('é'.repeat(257), 'v', 1, 'b'), // 514 UTF-8 bytes in 257 characters
      { ...entry('k', null, 1, 'b'), value: new Uint8Array(MAX_VALUE_BYTES + 1) },
      entry('k', 'v', -1, 'b'),
      entry('k', 'v', 1.5, 'b'),
      entry('k', 'v', 2 ** 53, 'b'),
      entry('k', 'v', 1, 'b', -1),
      entry('k', 'v', 1, 'b', 2 ** 32),
      entry('k', 'v', 1, ''),
      entry('k', 'v', 1, 'o'.repeat(257)),
      { ...entry('k', 'v', 1, 'b'), value: 'not bytes' as unknown as Uint8Array },
    ]
    for (const bad of invalid) {
      expect(() => store.merge(bad)).toThrow(InvalidMetadataError)
      expect(() => store.mergeSnapshot([entry('fine', 'v', 5, 'b'), bad])).toThrow(InvalidMetadataError)
    }
    expect(store.snapshot()).toEqual(before)
    expect(store.clock.peek()).toEqual(clockBefore)
  })

  it('accepts a key of exactly 512 UTF-8 bytes and a value of exactly 1 MiB', () => {
    const store = storeAt('a')
    expect(() => store.set('é'.repeat(256), new Uint8Array(MAX_VALUE_BYTES))).not.toThrow()
    expect(() => store.set('k', new Uint8Array(MAX_VALUE_BYTES + 1))).toThrow(InvalidMetadataError)
    expect(() => store.set('x'.repeat(513), bytes('v'))).toThrow(/longer than 512 UTF-8 bytes/)
  })

  it('refuses entries from a peer whose clock is far ahead, and whole snapshots containing one', () => {
    const store = storeAt('a')
    expect(() => store.merge(entry('k', 'future', 1_000_000 + 120_000, 'b'))).toThrow(ClockDriftError)
    expect(() =>
      store.mergeSnapshot([entry('ok', 'v', 1_000, 'b'), entry('k', 'future', 1_000_000 + 120_000, 'b')]),
    ).toThrow(ClockDriftError)
    expect(store.size).toBe(0)
    expect(store.clock.peek()).toEqual({ wallMs: 0, logical: 0 })
  })

  it('refuses new keys beyond maxEntries, but still updates existing ones', () => {
    const store = storeAt('a', undefined, 2)
    store.set('a', bytes('1'))
    store.set('b', bytes('1'))
    expect(() => store.set('c', bytes('1'))).toThrow(/full/)
    expect(() => store.merge(entry('c', '1', 5, 'b'))).toThrow(InvalidMetadataError)
    expect(() => store.mergeSnapshot([entry('c', '1', 5, 'b')])).toThrow(InvalidMetadataError)
    expect(() => store.set('a', bytes('2'))).not.toThrow()
    expect(store.size).toBe(2)
  })

  it('pruneTombstones() drops only tombstones older than the horizon', () => {
    const store = storeAt('a')
    store.merge(entry('old', null, 1_000, 'b'))
    store.merge(entry('recent', null, 900_000, 'b'))
    store.merge(entry('live', 'v', 1_000, 'b'))
    expect(store.pruneTombstones({ wallMs: 500_000, logical: 0 })).toBe(1)
    expect(store.snapshot().map((e) => e.key)).toEqual(['live', 'recent'])
  })
})
