/**
 * What group requests and responses share on the wire: the envelope version, the body kinds
 * (exactly one per message), limits on numbers, and regrouping flat partition lists by topic.
 */

import { MAX_PARTITIONS_PER_MESSAGE } from '../constants.js'
import type { TopicPartition } from '../topic-partition.js'
import type { Fail } from './validate.js'

export const VERSION = 1
export const INT32_MAX = 2_147_483_647
export const OFFSET_MAX = Number.MAX_SAFE_INTEGER
export const KINDS = ['join', 'sync', 'heartbeat', 'leave', 'commit', 'fetch'] as const

/** The one body a message carries; anything else is refused. */
export function onlyBody<T extends Record<(typeof KINDS)[number], unknown>>(
  message: Partial<T>,
  fail: Fail,
): (typeof KINDS)[number] {
  const present = KINDS.filter((kind) => message[kind] !== undefined)
  if (present.length !== 1) fail(`carries ${present.length} bodies; exactly one is allowed`)
  return present[0]!
}

export function optional(value: string): string | undefined {
  return value === '' ? undefined : value
}

export function bounded<T>(list: T[], fail: Fail): T[] {
  if (list.length > MAX_PARTITIONS_PER_MESSAGE) fail(`lists more than ${MAX_PARTITIONS_PER_MESSAGE} partitions`)
  return list
}

export function groupByTopic<T extends TopicPartition, P>(
  items: T[],
  toPartition: (item: T) => P,
): Array<{ topic: string; partitions: P[] }> {
  const topics = new Map<string, P[]>()
  for (const item of items) {
    const list = topics.get(item.topic)
    if (list === undefined) topics.set(item.topic, [toPartition(item)])
    else list.push(toPartition(item))
  }
  return [...topics].map(([topic, partitions]) => ({ topic, partitions }))
}
