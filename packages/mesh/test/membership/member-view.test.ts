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
