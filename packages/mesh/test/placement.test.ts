import { describe, expect, it } from 'vitest'
import { InvalidReplicationFactorError } from '../src/metadata/index.js'
import { murmur3, placeReplicas, preferredLeader, rendezvousScore } from '../src/placement.js'

const peers = (n: number): string[] => Array.from({ length: n }, (_, i) => `12D3KooWpeer${i}`)
const TOPIC = '6b1f0c2d9e8a47b3a1c4d5e6f7a8b9c0'

function leaders(voters: readonly string[], partitions: number): string[] {
  return Array.from({ length: partitions }, (_, p) => placeReplicas(TOPIC, p, 3, voters)[0] as string)
}

describe('mesh > placement', () => {
  it('murmur3 matches the reference vectors', () => {
    const utf8 = (s: string) => new TextEncoder().encode(s)
    expect(murmur3(utf8(''), 0)).toBe(0)
    expect(murmur3(utf8(''), 1)).toBe(0x514e28b7)
    expect(murmur3(utf8('Hello, world!'), 1234)).toBe(0xfaf6cdb3)
    expect(murmur3(utf8('The quick brown fox jumps over the lazy dog'), 0)).toBe(0x2e4ff723)
    expect(murmur3(new Uint8Array([0x21, 0x43, 0x65]), 0)).toBe(0x7e4a8634)
  })

  it('is deterministic and independent of voter order and duplicates', () => {
    const voters = peers(7)
    const shuffled = [...voters].reverse()
    for (let p = 0; p < 50; p++) {
      const placed = placeReplicas(TOPIC, p, 3, voters)
      expect(placeReplicas(TOPIC, p, 3, voters)).toEqual(placed)
      expect(placeReplicas(TOPIC, p, 3, shuffled)).toEqual(placed)
      expect(placeReplicas(TOPIC, p, 3, [...voters, ...voters])).toEqual(placed)
    }
  })

  it('puts servers first among the chosen replicas, so a browser voter leads only where no server can', () => {
    const voters = peers(5)
    const servers = new Set([voters[0]!, voters[1]!])
    let browserFirstWithout = 0
    for (let p = 0; p < 100; p++) {
      const plain = placeReplicas(TOPIC, p, 3, voters)
      const placed = placeReplicas(TOPIC, p, 3, voters, servers)
      // The same three peers hold it: only the order (the preferred leader) may change.
      expect([...placed].sort()).toEqual([...plain].sort())
      const firstBrowser = placed.findIndex((id) => !servers.has(id))
      if (firstBrowser !== -1) expect(placed.slice(firstBrowser).every((id) => !servers.has(id))).toBe(true)
      if (plain.some((id) => servers.has(id))) expect(servers.has(placed[0]!)).toBe(true)
      if (!servers.has(plain[0]!)) browserFirstWithout++
    }
    // Without the servers hint, browsers would have led some of these partitions.
    expect(browserFirstWithout).toBeGreaterThan(0)
  })

  it('returns distinct replicas, best first, and a prefix for smaller replication factors', () => {
    const voters = peers(9)
    for (let p = 0; p < 50; p++) {
      const placed = placeReplicas(TOPIC, p, 5, voters)
      expect(new Set(placed).size).toBe(5)
      expect(placeReplicas(TOPIC, p, 2, voters)).toEqual(placed.slice(0, 2))
      expect(preferredLeader(placed)).toBe(placed[0])
      const scores = placed.map((peer) => rendezvousScore(TOPIC, p, peer))
      for (let i = 1; i < scores.length; i++) {
        const [h0, l0] = scores[i - 1] as [number, number]
        const [h1, l1] = scores[i] as [number, number]
        expect(h0 > h1 || (h0 === h1 && l0 > l1)).toBe(true)
      }
    }
    expect(preferredLeader([])).toBeUndefined()
  })

  it('enforces 1 ≤ replication factor ≤ distinct voters', () => {
    expect(() => placeReplicas(TOPIC, 0, 4, peers(3))).toThrow(InvalidReplicationFactorError)
    expect(() => placeReplicas(TOPIC, 0, 0, peers(3))).toThrow(InvalidReplicationFactorError)
    expect(() => placeReplicas(TOPIC, 0, 2, ['a', 'a'])).toThrow(InvalidReplicationFactorError)
    expect(() => placeReplicas(TOPIC, -1, 1, peers(3))).toThrow(RangeError)
    expect(placeReplicas(TOPIC, 0, 3, peers(3)).sort()).toEqual(peers(3).sort())
  })

  it('keeps topic id and partition apart from the peer id in the hash input', () => {
    // Same concatenated text, different split: must not score identically.
    expect(rendezvousScore('ab', 1, 'c')).not.toEqual(rendezvousScore('a', 1, 'bc'))
  })

  it('adding an 11th voter to 10 moves about 1/11 of 1,000 leaders, all of them to the new voter', () => {
    const ten = peers(10)
    const eleven = peers(11)
    const before = leaders(ten, 1_000)
    const after = leaders(eleven, 1_000)
    let moved = 0
    for (let p = 0; p < 1_000; p++) {
      if (before[p] !== after[p]) {
        moved++
        expect(after[p]).toBe(eleven[10])
      }
    }
    expect(moved).toBeGreaterThan(40) // 1/11 ≈ 91 expected
    expect(moved).toBeLessThan(200)
  })

  it('adding a voter only changes replica sets it joins', () => {
    const ten = peers(10)
    const eleven = peers(11)
    let changed = 0
    for (let p = 0; p < 1_000; p++) {
      const before = placeReplicas(TOPIC, p, 3, ten)
      const after = placeReplicas(TOPIC, p, 3, eleven)
      if (after.join() !== before.join()) {
        changed++
        expect(after).toContain(eleven[10])
        // The others keep their relative order; the one that fell off was the last.
        expect(after.filter((peer) => peer !== eleven[10])).toEqual(before.slice(0, 2))
      }
    }
    // RF/(n+1) = 3/11 ≈ 27% of partitions gain the new voter.
    expect(changed).toBeGreaterThan(180)
    expect(changed).toBeLessThan(380)
  })

  it('spreads leaders evenly: every voter leads 60–140% of the mean', () => {
    for (const topicId of [TOPIC, '00000000000000000000000000000000', 'orders']) {
      const counts = new Map<string, number>()
      for (let p = 0; p < 1_000; p++) {
        const leader = placeReplicas(topicId, p, 3, peers(10))[0] as string
        counts.set(leader, (counts.get(leader) ?? 0) + 1)
      }
      expect(counts.size).toBe(10)
      for (const count of counts.values()) {
        expect(count).toBeGreaterThanOrEqual(60)
        expect(count).toBeLessThanOrEqual(140)
      }
    }
  })
})
