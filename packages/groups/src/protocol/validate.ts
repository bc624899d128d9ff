/**
 * Field checks shared by the message and record decoders. Everything a peer sends passes through
 * these before a state machine sees it; a failure is an InvalidRequestError naming the field
 * (records use their own error class, passed in as `fail`).
 */
import { InvalidRequestError } from '@tributary/wire'
import {
  MAX_PARTITION_NUMBER,
  MAX_PARTITIONS_PER_MESSAGE,
  MAX_SUBSCRIBED_TOPICS,
  MAX_TOPIC_NAME_LENGTH,
} from '../constants.js'
import { keyOf, type TopicPartition } from '../topic-partition.js'

export type Fail = (message: string) => never

export const invalidRequest: Fail = (message) => {
  throw new InvalidRequestError(message)
}

/** Kafka's legal characters for topic names and static instance ids. */
const LEGAL_NAME = /^[a-zA-Z0-9._-]+$/

export function checkString(value: string, field: string, max: number, fail: Fail, min = 0): string {
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    fail(`${field} must be a string of ${min} to ${max} characters`)
  }
  return value
}

export function checkOptionalName(value: string, field: string, max: number, fail: Fail): string | undefined {
  if (value === '') return undefined
  checkString(value, field, max, fail, 1)
  if (!LEGAL_NAME.test(value)) fail(`${field} may hold only ASCII letters, digits, '.', '_' and '-'`)
  return value
}

export function checkTopic(value: string, field: string, fail: Fail): string {
  checkString(value, field, MAX_TOPIC_NAME_LENGTH, fail, 1)
  if (!LEGAL_NAME.test(value)) fail(`${field} may hold only ASCII letters, digits, '.', '_' and '-'`)
  return value
}

export function checkInt(value: number | bigint, field: string, min: number, max: number, fail: Fail): number {
  const n =
    typeof value === 'bigint' ? (value >= BigInt(min) && value <= BigInt(max) ? Number(value) : Number.NaN) : value
  if (!Number.isSafeInteger(n) || n < min || n > max) fail(`${field} must be an integer from ${min} to ${max}`)
  return n
}

export function checkTopics(topics: string[], field: string, fail: Fail): string[] {
  if (topics.length > MAX_SUBSCRIBED_TOPICS) fail(`${field} lists more than ${MAX_SUBSCRIBED_TOPICS} topics`)
  const seen = new Set<string>()
  for (const topic of topics) {
    checkTopic(topic, field, fail)
    if (seen.has(topic)) fail(`${field} lists topic ${topic} twice`)
    seen.add(topic)
  }
  return topics
}

/** Grouped partitions → a flat list; topics valid, numbers in range, nothing twice, bounded in total. */
export function checkTopicPartitions(
  grouped: Array<{ topic: string; partitions: number[] }>,
  field: string,
  fail: Fail,
): TopicPartition[] {
  const list: TopicPartition[] = []
  const seen = new Set<string>()
  for (const entry of grouped) {
    checkTopic(entry.topic, `${field} topic`, fail)
    for (const partition of entry.partitions) {
      checkInt(partition, `${field} partition`, 0, MAX_PARTITION_NUMBER - 1, fail)
      const tp = { topic: entry.topic, partition }
      if (seen.has(keyOf(tp))) fail(`${field} lists ${entry.topic}-${partition} twice`)
      seen.add(keyOf(tp))
      list.push(tp)
      if (list.length > MAX_PARTITIONS_PER_MESSAGE)
        fail(`${field} lists more than ${MAX_PARTITIONS_PER_MESSAGE} partitions`)
    }
  }
  return list
}

export function checkUnique(values: string[], field: string, fail: Fail): string[] {
  if (new Set(values).size !== values.length) fail(`${field} lists a value twice`)
  return values
}
