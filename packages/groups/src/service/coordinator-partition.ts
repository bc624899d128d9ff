/**
 * Which `__consumer_offsets` partition holds a group, exactly as Kafka computes it
 * (`Utils.abs(groupId.hashCode) % offsets.topic.num.partitions`), so a group lands on the same
 * partition number here as in Kafka and tools that reason about Kafka's layout stay right.
 */

/** Kafka's `offsets.topic.num.partitions` default. */
export const OFFSETS_TOPIC_PARTITIONS = 50
/** Kafka's `offsets.topic.replication.factor` default; fewer when fewer peers vote. */
export const OFFSETS_TOPIC_REPLICATION_FACTOR = 3

/** Java's `String.hashCode`: s[0]·31^(n-1) + … + s[n-1] over UTF-16 code units, in int32 arithmetic. */
export function javaStringHashCode(s: string): number {
  let hash = 0
  for (let i = 0; i < s.length; i++) hash = (Math.imul(hash, 31) + s.charCodeAt(i)) | 0
  return hash
}

/** Kafka's `Utils.abs`: Math.abs, except that Integer.MIN_VALUE maps to 0 (not to itself). */
function kafkaAbs(n: number): number {
  return n === -2_147_483_648 ? 0 : Math.abs(n)
}

export function coordinatorPartitionFor(groupId: string, partitions: number = OFFSETS_TOPIC_PARTITIONS): number {
  if (!Number.isSafeInteger(partitions) || partitions < 1) throw new RangeError(`invalid partition count ${partitions}`)
  return kafkaAbs(javaStringHashCode(groupId)) % partitions
}
