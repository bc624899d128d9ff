/**
 * The balanced, sticky target behind cooperative-sticky: which member should own each partition,
 * moving as few partitions as possible away from the members holding them.
 *
 * - Same subscription everywhere (the usual case): quotas. With P partitions and M members every
 *   member gets floor(P/M) or ceil(P/M), and the members holding the most keep the larger quota,
 *   so the number of partitions kept in place is the largest any balanced assignment allows.
 * - Different subscriptions: keep everything held, give each free partition to the least loaded
 *   member that subscribes to it (scarcest partitions first), then move partitions one at a time
 *   from a member to an eligible one with at least two fewer until no such move is left. Every
 *   move lowers the sum of squared loads, so this ends; it is bounded anyway.
 */
import { compareTopicPartitions, keyOf, type TopicPartition } from '../topic-partition.js'
import type { AssignorMember } from './types.js'

/** `members` in member order; `owned` already valid (subscribed, existing, unshared) per member. */
export interface StickyInput {
  members: readonly AssignorMember[]
  owned: ReadonlyMap<string, TopicPartition[]>
  /** Every partition of every subscribed topic, in canonical order. */
  partitions: readonly TopicPartition[]
}

export function uniformTarget(input: StickyInput): Map<string, TopicPartition[]> {
  const { members, owned, partitions } = input
  const target = new Map<string, TopicPartition[]>()
  if (members.length === 0) return target
  const minQuota = Math.floor(partitions.length / members.length)
  let maxSlots = partitions.length % members.length
  const maxQuota = maxSlots > 0 ? minQuota + 1 : minQuota
  const kept = new Set<string>()
  const quota = new Map<string, number>()
  // Most-holding members first: they are the ones that can keep a full larger quota.
  const byHoldings = [...members.keys()].sort(
    (a, b) => (owned.get(members[b]!.memberId)?.length ?? 0) - (owned.get(members[a]!.memberId)?.length ?? 0) || a - b,
  )
  for (const index of byHoldings) {
    const member = members[index]!
    const held = [...(owned.get(member.memberId) ?? [])].sort(compareTopicPartitions)
    let q = minQuota
    if (held.length >= maxQuota && maxSlots > 0 && maxQuota > minQuota) {
      q = maxQuota
      maxSlots--
    }
    quota.set(member.memberId, q)
    const keep = held.slice(0, q)
    for (const tp of keep) kept.add(keyOf(tp))
    target.set(member.memberId, keep)
  }
  // The larger quotas left go to the first members (in member order) not already at it.
  for (const member of members) {
    if (maxSlots === 0) break
    if (quota.get(member.memberId) === minQuota && maxQuota > minQuota) {
      quota.set(member.memberId, maxQuota)
      maxSlots--
    }
  }
  const pool = partitions.filter((tp) => !kept.has(keyOf(tp)))
  let next = 0
  for (const member of members) {
    const list = target.get(member.memberId)!
    while (list.length < quota.get(member.memberId)! && next < pool.length) list.push(pool[next++]!)
  }
  for (const list of target.values()) list.sort(compareTopicPartitions)
  return target
}

export function generalTarget(input: StickyInput): Map<string, TopicPartition[]> {
  const { members, owned, partitions } = input
  const order = new Map(members.map((member, i) => [member.memberId, i]))
  const subscribers = new Map<string, string[]>()
  for (const member of members) {
    for (const topic of member.topics) {
      const list = subscribers.get(topic)
      if (list === undefined) subscribers.set(topic, [member.memberId])
      else list.push(member.memberId)
    }
  }
  const load = new Map<string, Set<string>>(members.map((m) => [m.memberId, new Set()]))
  const previously = new Map<string, string>()
  for (const [memberId, list] of owned) {
    for (const tp of list) {
      load.get(memberId)!.add(keyOf(tp))
      previously.set(keyOf(tp), memberId)
    }
  }
  const eligible = (tp: TopicPartition): string[] => subscribers.get(tp.topic) ?? []
  const leastLoaded = (candidates: readonly string[]): string | undefined => {
    let best: string | undefined
    for (const memberId of candidates) {
      if (best === undefined) best = memberId
      else {
        const diff = load.get(memberId)!.size - load.get(best)!.size
        if (diff < 0 || (diff === 0 && order.get(memberId)! < order.get(best)!)) best = memberId
      }
    }
    return best
  }
  const free = partitions
    .filter((tp) => !previously.has(keyOf(tp)) && eligible(tp).length > 0)
    .sort((a, b) => eligible(a).length - eligible(b).length || compareTopicPartitions(a, b))
  const byKey = new Map(partitions.map((tp) => [keyOf(tp), tp]))
  for (const tp of free) load.get(leastLoaded(eligible(tp))!)!.add(keyOf(tp))

  // Each move lowers the sum of squared loads by at least 2, so P * M moves is a generous bound.
  const maxMoves = partitions.length * Math.max(1, members.length)
  for (let moves = 0; moves < maxMoves; moves++) {
    const move = findMove(members, load, byKey, previously, eligible, leastLoaded)
    if (move === undefined) break
    load.get(move.from)!.delete(move.key)
    load.get(move.to)!.add(move.key)
  }
  const target = new Map<string, TopicPartition[]>()
  for (const member of members) {
    target.set(
      member.memberId,
      [...load.get(member.memberId)!].map((key) => byKey.get(key)!).sort(compareTopicPartitions),
    )
  }
  return target
}

function findMove(
  members: readonly AssignorMember[],
  load: Map<string, Set<string>>,
  byKey: Map<string, TopicPartition>,
  previously: Map<string, string>,
  eligible: (tp: TopicPartition) => string[],
  leastLoaded: (candidates: readonly string[]) => string | undefined,
): { key: string; from: string; to: string } | undefined {
  // A stable sort: equal loads stay in member order.
  const heaviestFirst = [...members].sort((a, b) => load.get(b.memberId)!.size - load.get(a.memberId)!.size)
  for (const member of heaviestFirst) {
    const from = member.memberId
    const size = load.get(from)!.size
    // Partitions the member did not hold before move first: that revokes nothing.
    const keys = [...load.get(from)!].sort(
      (a, b) =>
        Number(previously.get(a) === from) - Number(previously.get(b) === from) ||
        compareTopicPartitions(byKey.get(a)!, byKey.get(b)!),
    )
    for (const key of keys) {
      const candidates = eligible(byKey.get(key)!).filter((id) => id !== from && load.get(id)!.size < size - 1)
      const to = leastLoaded(candidates)
      if (to !== undefined) return { key, from, to }
    }
  }
  return undefined
}
