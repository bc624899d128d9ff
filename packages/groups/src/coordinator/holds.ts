/**
 * Who may be holding each partition of one group, as the coordinator must assume it. This is what
 * makes "never two owners at once" hold across generations and failures:
 *
 * - A member holds a partition from the moment the coordinator answers a sync that assigns it
 *   (`grant`) until the member reports it no longer does. Reports ride on joins: the member lists
 *   what it holds and the generation that came from. A report older than the member's latest grant
 *   may predate that grant (a delayed or reordered message), so it is ignored; otherwise the
 *   holdings shrink to what the report lists (they never grow on a member's word).
 * - A member removed without releasing (timed out) keeps its partitions fenced until its session
 *   has surely ended on its own side: it stops using its partitions when it has heard nothing for
 *   a session timeout, counted from before its last renewed request was sent.
 */
import { keyOf, sortedFromKeys, type TopicPartition } from '../topic-partition.js'

interface Fence {
  memberId: string
  until: number
}

export class PartitionHolds {
  private readonly held = new Map<string, Set<string>>()
  private readonly grantGeneration = new Map<string, number>()
  private readonly fences = new Map<string, Fence>()

  /** The member (or removed member, while fenced) that may hold `key` at `now`. */
  holderOf(key: string, now: number): string | undefined {
    for (const [memberId, keys] of this.held) if (keys.has(key)) return memberId
    const fence = this.fences.get(key)
    return fence !== undefined && fence.until > now ? fence.memberId : undefined
  }

  /** Partition key → holder at `now`, for the whole group at once. */
  holders(now: number): Map<string, string> {
    const map = new Map<string, string>()
    for (const [key, fence] of this.fences) if (fence.until > now) map.set(key, fence.memberId)
    for (const [memberId, keys] of this.held) for (const key of keys) map.set(key, memberId)
    return map
  }

  heldBy(memberId: string): ReadonlySet<string> {
    return this.held.get(memberId) ?? new Set()
  }

  heldList(memberId: string): TopicPartition[] {
    return sortedFromKeys(this.heldBy(memberId))
  }

  grant(memberId: string, partitions: readonly TopicPartition[], generation: number): void {
    const keys = this.held.get(memberId) ?? new Set<string>()
    for (const tp of partitions) keys.add(keyOf(tp))
    this.held.set(memberId, keys)
    this.grantGeneration.set(memberId, Math.max(generation, this.grantGeneration.get(memberId) ?? -1))
  }

  /** Applies a member's report of what it holds; true if its holdings shrank. */
  report(memberId: string, owned: readonly TopicPartition[], ownedGeneration: number): boolean {
    const keys = this.held.get(memberId)
    if (keys === undefined || keys.size === 0) return false
    if (ownedGeneration < (this.grantGeneration.get(memberId) ?? -1)) return false
    const reported = new Set(owned.map(keyOf))
    let shrank = false
    for (const key of keys) {
      if (!reported.has(key)) {
        keys.delete(key)
        shrank = true
      }
    }
    return shrank
  }

  /** The member released everything (it revokes before leaving). */
  release(memberId: string): void {
    this.held.delete(memberId)
    this.grantGeneration.delete(memberId)
  }

  /** The member is gone without releasing: fence what it held until `until`. */
  fence(memberId: string, until: number, now: number): void {
    const keys = this.held.get(memberId)
    this.release(memberId)
    if (keys === undefined || until <= now) return
    for (const key of keys) this.fences.set(key, { memberId, until })
  }

  /** Static membership: a new incarnation takes over its predecessor's holdings. */
  transfer(from: string, to: string): void {
    const keys = this.held.get(from)
    const generation = this.grantGeneration.get(from)
    this.release(from)
    if (keys !== undefined) this.held.set(to, keys)
    if (generation !== undefined) this.grantGeneration.set(to, generation)
  }

  /** Drops fences that ended by `now`; returns the partitions they freed. */
  expireFences(now: number): string[] {
    const freed: string[] = []
    for (const [key, fence] of this.fences) {
      if (fence.until <= now) {
        this.fences.delete(key)
        freed.push(key)
      }
    }
    return freed
  }

  nextFenceExpiry(): number | undefined {
    let next: number | undefined
    for (const fence of this.fences.values()) if (next === undefined || fence.until < next) next = fence.until
    return next
  }

  /** Live fences, grouped by member, with the time they still have to run. */
  fenceList(now: number): Array<{ memberId: string; partitions: TopicPartition[]; leaseMs: number }> {
    const byMember = new Map<string, { keys: string[]; until: number }>()
    for (const [key, fence] of this.fences) {
      if (fence.until <= now) continue
      const entry = byMember.get(fence.memberId) ?? { keys: [], until: fence.until }
      entry.keys.push(key)
      entry.until = Math.max(entry.until, fence.until)
      byMember.set(fence.memberId, entry)
    }
    return [...byMember]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([memberId, { keys, until }]) => ({ memberId, partitions: sortedFromKeys(keys), leaseMs: until - now }))
  }

  /** Recovery: a member's holdings as the last group record has them. */
  restore(memberId: string, partitions: readonly TopicPartition[], generation: number): void {
    this.held.set(memberId, new Set(partitions.map(keyOf)))
    this.grantGeneration.set(memberId, generation)
  }

  restoreFence(memberId: string, partitions: readonly TopicPartition[], until: number): void {
    for (const tp of partitions) this.fences.set(keyOf(tp), { memberId, until })
  }
}
