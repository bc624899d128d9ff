/**
 * The membership view as a pure state machine: heartbeats, disconnects and the passage of time go
 * in, transitions come out. No I/O and no timers, so every rule is testable with a fake clock.
 *
 * Rules, per peer (incarnation = one process lifetime, seq = heartbeat number within it):
 * - a heartbeat of an older incarnation, or not newer (seq) than the last one seen, is ignored;
 * - a newer incarnation is a restart and counts as a fresh join;
 * - `leaving` marks the member left at once; a left incarnation stays left, even when its goodbye
 *   arrived before its earlier heartbeats (or before anything else of it);
 * - no heartbeat for `failureTimeoutMs` → dead (leave, reason 'failed'); a later heartbeat of the
 *   same incarnation brings it back (join);
 * - a libp2p disconnect makes an alive member suspect until its next heartbeat;
 * - dead and left members are forgotten after `forgetAfterMs`.
 */
import type { ValidHeartbeat } from './heartbeat.js'
import type { LeaveReason, Member } from './types.js'

export type Transition =
  | { type: 'join'; member: Member }
  | { type: 'update'; member: Member }
  | { type: 'leave'; member: Member; reason: LeaveReason }

export interface MemberViewInit {
  failureTimeoutMs: number
  forgetAfterMs: number
  maxMembers: number
}

interface Entry {
  member: Member
  seq: bigint
}

export class MemberView {
  readonly #init: MemberViewInit
  readonly #entries = new Map<string, Entry>()

  constructor(init: MemberViewInit) {
    this.#init = init
  }

  get size(): number {
    return this.#entries.size
  }

  get(peerId: string): Member | undefined {
    const entry = this.#entries.get(peerId)
    return entry === undefined ? undefined : copy(entry.member)
  }

  members(): Member[] {
    return [...this.#entries.values()].map((entry) => copy(entry.member))
  }

  /** Applies one validated heartbeat received at `now`. */
  apply(hb: ValidHeartbeat, now: number): Transition | undefined {
    const entry = this.#entries.get(hb.peerId)
    if (entry === undefined || hb.incarnation > entry.member.incarnation) {
      if (entry === undefined && this.#entries.size >= this.#init.maxMembers) return undefined
      if (hb.leaving) {
        // A goodbye from a peer we never saw (or from a newer incarnation than the one we know):
        // remembered as left, so the same incarnation's earlier heartbeats, arriving late, cannot
        // bring it back; only a newer incarnation can. Only a member still counted as present
        // (alive or suspect) has anything to leave.
        const left: Entry = { member: { ...memberFrom(hb, now), status: 'left' }, seq: hb.seq }
        this.#entries.set(hb.peerId, left)
        const present = entry?.member.status === 'alive' || entry?.member.status === 'suspect'
        return present ? { type: 'leave', member: copy(left.member), reason: 'left' } : undefined
      }
      const member = memberFrom(hb, now)
      this.#entries.set(hb.peerId, { member, seq: hb.seq })
      return { type: 'join', member: copy(member) }
    }
    if (hb.incarnation < entry.member.incarnation || hb.seq <= entry.seq) return undefined
    const previous = entry.member
    if (previous.status === 'left') return undefined
    entry.seq = hb.seq
    if (hb.leaving) {
      entry.member = { ...memberFrom(hb, now), status: 'left' }
      return previous.status === 'dead' ? undefined : { type: 'leave', member: copy(entry.member), reason: 'left' }
    }
    entry.member = memberFrom(hb, now)
    if (previous.status === 'dead') return { type: 'join', member: copy(entry.member) }
    if (previous.status === 'suspect' || changed(previous, entry.member)) {
      return { type: 'update', member: copy(entry.member) }
    }
    return undefined
  }

  /** libp2p lost its last connection to the peer: alive → suspect until its next heartbeat. */
  suspect(peerId: string): Transition | undefined {
    const entry = this.#entries.get(peerId)
    if (entry?.member.status !== 'alive') return undefined
    entry.member = { ...entry.member, status: 'suspect' }
    return { type: 'update', member: copy(entry.member) }
  }

  /** Declares silent members dead and forgets long-gone ones. */
  expire(now: number): Transition[] {
    const transitions: Transition[] = []
    for (const [peerId, entry] of this.#entries) {
      const { member } = entry
      const silentMs = now - member.lastSeenMs
      if ((member.status === 'alive' || member.status === 'suspect') && silentMs > this.#init.failureTimeoutMs) {
        entry.member = { ...member, status: 'dead' }
        transitions.push({ type: 'leave', member: copy(entry.member), reason: 'failed' })
      } else if ((member.status === 'dead' || member.status === 'left') && silentMs > this.#init.forgetAfterMs) {
        this.#entries.delete(peerId)
      }
    }
    return transitions
  }

  /** Sets (or refreshes) an entry without transition rules: the local peer's own. */
  upsertSelf(hb: ValidHeartbeat, now: number): boolean {
    const isNew = !this.#entries.has(hb.peerId)
    this.#entries.set(hb.peerId, { member: memberFrom(hb, now), seq: hb.seq })
    return isNew
  }

  delete(peerId: string): void {
    this.#entries.delete(peerId)
  }

  clear(): void {
    this.#entries.clear()
  }
}

function memberFrom(hb: ValidHeartbeat, now: number): Member {
  return {
    peerId: hb.peerId,
    status: 'alive',
    roles: { ...hb.roles },
    storage: hb.storage,
    version: hb.version,
    addresses: [...hb.addresses],
    lastSeenMs: now,
    incarnation: hb.incarnation,
  }
}

function changed(a: Member, b: Member): boolean {
  return (
    a.roles.voter !== b.roles.voter ||
    a.roles.observer !== b.roles.observer ||
    a.storage !== b.storage ||
    a.version !== b.version ||
    a.addresses.length !== b.addresses.length ||
    a.addresses.some((address, i) => address !== b.addresses[i])
  )
}

function copy(member: Member): Member {
  return { ...member, roles: { ...member.roles }, addresses: [...member.addresses] }
}
