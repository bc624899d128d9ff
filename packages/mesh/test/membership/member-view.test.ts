import { describe, expect, it } from 'vitest'
import type { ValidHeartbeat } from '../../src/membership/heartbeat.js'
import { MemberView } from '../../src/membership/member-view.js'

const FAILURE_MS = 1000
const FORGET_MS = 10_000

function hb(overrides: Partial<ValidHeartbeat> = {}): ValidHeartbeat {
  return {
    peerId: 'A',
    incarnation: 100n,
    seq: 1n,
    roles: { voter: true, observer: false },
    storage: 'fs',
    version: '0.1.0',
    addresses: ['/ip4/127.0.0.1/tcp/1/p2p/A'],
    leaving: false,
    ...overrides,
  }
}

function view(maxMembers = 10): MemberView {
  return new MemberView({ failureTimeoutMs: FAILURE_MS, forgetAfterMs: FORGET_MS, maxMembers })
}

describe('membership > view rules', () => {
  it('joins on the first heartbeat and ignores repeats and stale seqs', () => {
    const v = view()
    expect(v.apply(hb(), 0)).toMatchObject({ type: 'join', member: { peerId: 'A', status: 'alive', lastSeenMs: 0 } })
    expect(v.apply(hb(), 10)).toBeUndefined()
    expect(v.apply(hb({ seq: 2n }), 20)).toBeUndefined() // nothing changed but liveness
    expect(v.get('A')?.lastSeenMs).toBe(20)
    expect(v.apply(hb({ seq: 1n, version: 'old' }), 30)).toBeUndefined()
    expect(v.get('A')?.version).toBe('0.1.0')
  })

  it('reports changed roles, storage, version or addresses as an update', () => {
    const v = view()
    v.apply(hb(), 0)
    expect(v.apply(hb({ seq: 2n, roles: { voter: false, observer: true } }), 1)).toMatchObject({
      type: 'update',
      member: { roles: { voter: false, observer: true } },
    })
    expect(v.apply(hb({ seq: 3n, roles: { voter: false, observer: true }, addresses: [] }), 2)?.type).toBe('update')
  })

  it('declares a silent member dead after the failure timeout, and lets it come back', () => {
    const v = view()
    v.apply(hb(), 0)
    expect(v.expire(FAILURE_MS)).toEqual([])
    expect(v.expire(FAILURE_MS + 1)).toMatchObject([{ type: 'leave', reason: 'failed', member: { status: 'dead' } }])
    expect(v.expire(FAILURE_MS + 2)).toEqual([])
    expect(v.apply(hb({ seq: 2n }), FAILURE_MS + 5)).toMatchObject({ type: 'join', member: { status: 'alive' } })
  })

  it('marks a member suspect on disconnect until its next heartbeat', () => {
    const v = view()
    v.apply(hb(), 0)
    expect(v.suspect('A')).toMatchObject({ type: 'update', member: { status: 'suspect' } })
    expect(v.suspect('A')).toBeUndefined()
    expect(v.suspect('unknown')).toBeUndefined()
    expect(v.apply(hb({ seq: 2n }), 5)).toMatchObject({ type: 'update', member: { status: 'alive' } })
    v.suspect('A')
    expect(v.expire(5 + FAILURE_MS + 1)).toMatchObject([{ reason: 'failed' }])
  })

  it('marks a leaving member left at once, and keeps it left for its incarnation', () => {
    const v = view()
    v.apply(hb(), 0)
    expect(v.apply(hb({ seq: 2n, leaving: true }), 1)).toMatchObject({
      type: 'leave',
      reason: 'left',
      member: { status: 'left' },
    })
    expect(v.apply(hb({ seq: 3n }), 2)).toBeUndefined()
    expect(v.get('A')?.status).toBe('left')
    expect(v.expire(FAILURE_MS + 100)).toEqual([])
  })

  it('treats a new incarnation as a fresh join, and ignores heartbeats of an older one', () => {
    const v = view()
    v.apply(hb(), 0)
    v.apply(hb({ seq: 2n, leaving: true }), 1)
    expect(v.apply(hb({ incarnation: 200n, seq: 1n }), 2)).toMatchObject({
      type: 'join',
      member: { incarnation: 200n, status: 'alive' },
    })
    expect(v.apply(hb({ incarnation: 100n, seq: 99n }), 3)).toBeUndefined()
    expect(v.get('A')?.incarnation).toBe(200n)
  })

  it('forgets dead and left members after forgetAfterMs, and bounds the view', () => {
    const v = view(2)
    v.apply(hb({ peerId: 'A' }), 0)
    v.apply(hb({ peerId: 'B' }), 0)
    expect(v.apply(hb({ peerId: 'C' }), 0)).toBeUndefined()
    expect(v.size).toBe(2)
    v.expire(FAILURE_MS + 1)
    v.expire(FORGET_MS + 1)
    expect(v.size).toBe(0)
    expect(v.apply(hb({ peerId: 'C' }), FORGET_MS + 2)?.type).toBe('join')
  })

  it('hands out copies, so callers cannot change the view', () => {
    const v = view()
    v.apply(hb(), 0)
    const member = v.get('A')!
    member.addresses.push('x')
    member.roles.voter = false
    expect(v.get('A')).toMatchObject({ roles: { voter: true }, addresses: ['/ip4/127.0.0.1/tcp/1/p2p/A'] })
  })
})

/** Small seeded PRNG (mulberry32), so a failing order can be replayed from its seed. */
function prng(seed: number): () => number {
  let t = seed >>> 0
  return () => {
    t = (t + 0x6d2b79f5) >>> 0
    let r = Math.imul(t ^ (t >>> 15), 1 | t)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}

describe('membership > view across restarts, in any delivery order', () => {
  it("a restart's heartbeats win over the previous incarnation's leave, whichever arrives first", () => {
    const v = view()
    v.apply(hb(), 0)
    // The new incarnation's first heartbeat overtakes the old one's goodbye...
    expect(v.apply(hb({ incarnation: 200n, seq: 1n }), 1)).toMatchObject({ type: 'join' })
    expect(v.apply(hb({ seq: 2n, leaving: true }), 2)).toBeUndefined()
    expect(v.get('A')).toMatchObject({ status: 'alive', incarnation: 200n })
    // ...and a third incarnation whose heartbeat arrives before the second's leave.
    expect(v.apply(hb({ incarnation: 300n, seq: 1n }), 3)).toMatchObject({ type: 'join' })
    expect(v.apply(hb({ incarnation: 200n, seq: 2n, leaving: true }), 4)).toBeUndefined()
    expect(v.get('A')).toMatchObject({ status: 'alive', incarnation: 300n })
  })

  it('a restart after a crash revives a dead member at once, without waiting for it to be forgotten', () => {
    const v = view()
    v.apply(hb(), 0)
    expect(v.expire(FAILURE_MS + 1)).toMatchObject([{ type: 'leave', reason: 'failed' }])
    expect(v.apply(hb({ incarnation: 200n, seq: 1n }), FAILURE_MS + 2)).toMatchObject({
      type: 'join',
      member: { status: 'alive', incarnation: 200n },
    })
  })

  it('converges on the newest incarnation for 500 seeded orders of restarts, leaves, duplicates and delays', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const random = prng(seed)
      // 2–5 incarnations; each sends 1–4 heartbeats, then leaves cleanly or crashes (sends nothing more).
      const lives = 2 + Math.floor(random() * 4)
      const messages: ValidHeartbeat[] = []
      let newestLeft = false
      for (let life = 1; life <= lives; life++) {
        const incarnation = BigInt(life * 1000)
        const beats = 1 + Math.floor(random() * 4)
        for (let seq = 1; seq <= beats; seq++) messages.push(hb({ incarnation, seq: BigInt(seq) }))
        const leaves = random() < 0.6
        if (leaves) messages.push(hb({ incarnation, seq: BigInt(beats + 1), leaving: true }))
        if (life === lives) newestLeft = leaves
      }
      // Duplicates (gossip delivers some twice), then a shuffle: any message may be late.
      for (const message of [...messages]) if (random() < 0.3) messages.push(message)
      for (let i = messages.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1))
        ;[messages[i], messages[j]] = [messages[j]!, messages[i]!]
      }
      const v = view()
      messages.forEach((message, i) => {
        v.apply(message, i)
      })
      const member = v.get('A')
      expect(member?.incarnation, `seed ${seed}`).toBe(BigInt(lives * 1000))
      expect(member?.status, `seed ${seed}`).toBe(newestLeft ? 'left' : 'alive')
    }
  })
})

describe('membership > view: goodbyes that arrive first', () => {
  it("remembers an unknown peer's goodbye, so that incarnation's late heartbeats cannot bring it back", () => {
    const v = view()
    expect(v.apply(hb({ seq: 3n, leaving: true }), 0)).toBeUndefined()
    expect(v.get('A')?.status).toBe('left')
    expect(v.apply(hb({ seq: 1n }), 1)).toBeUndefined()
    expect(v.apply(hb({ seq: 2n }), 2)).toBeUndefined()
    expect(v.get('A')?.status).toBe('left')
    // A newer incarnation is a restart: it joins.
    expect(v.apply(hb({ incarnation: 200n, seq: 1n }), 3)).toMatchObject({ type: 'join' })
  })

  it("reports one leave per departure: a newer incarnation's goodbye after a crash adds none", () => {
    const v = view()
    v.apply(hb(), 0)
    expect(v.expire(FAILURE_MS + 1)).toHaveLength(1)
    expect(v.apply(hb({ incarnation: 200n, seq: 2n, leaving: true }), FAILURE_MS + 2)).toBeUndefined()
    expect(v.get('A')).toMatchObject({ status: 'left', incarnation: 200n })
  })

  it("keeps an unknown peer's goodbye within maxMembers", () => {
    const v = view(1)
    v.apply(hb({ peerId: 'B' }), 0)
    expect(v.apply(hb({ seq: 2n, leaving: true }), 1)).toBeUndefined()
    expect(v.get('A')).toBeUndefined()
    expect(v.size).toBe(1)
  })
})
