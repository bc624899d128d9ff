/**
 * Topic-partitions as groups handle them: a plain `{ topic, partition }` at API edges, a string key
 * inside sets and maps, and one canonical order (topic, then partition number) wherever a list
 * leaves this package, so equal sets always encode to equal bytes.
 */

export interface TopicPartition {
  topic: string
  partition: number
}

/** `<partition>/<topic>`: unambiguous for any topic name, since the number ends at the first '/'. */
export function tpKey(topic: string, partition: number): string {
  return `${partition}/${topic}`
}

export function keyOf(tp: TopicPartition): string {
  return tpKey(tp.topic, tp.partition)
}

export function fromKey(key: string): TopicPartition {
  const slash = key.indexOf('/')
  return { topic: key.slice(slash + 1), partition: Number(key.slice(0, slash)) }
}

export function compareTopicPartitions(a: TopicPartition, b: TopicPartition): number {
  if (a.topic !== b.topic) return a.topic < b.topic ? -1 : 1
  return a.partition - b.partition
}

export function sortTopicPartitions(list: Iterable<TopicPartition>): TopicPartition[] {
  return [...list].sort(compareTopicPartitions)
}

/** The partitions of a key set, in canonical order. */
export function sortedFromKeys(keys: Iterable<string>): TopicPartition[] {
  return sortTopicPartitions([...keys].map(fromKey))
}

export function keySet(list: Iterable<TopicPartition>): Set<string> {
  const set = new Set<string>()
  for (const tp of list) set.add(keyOf(tp))
  return set
}

/** Groups by topic (topics and partitions in canonical order), the shape the wire messages use. */
export function byTopic(list: Iterable<TopicPartition>): Array<{ topic: string; partitions: number[] }> {
  const grouped = new Map<string, number[]>()
  for (const tp of list) {
    const partitions = grouped.get(tp.topic)
    if (partitions === undefined) grouped.set(tp.topic, [tp.partition])
    else partitions.push(tp.partition)
  }
  return [...grouped.keys()]
    .sort()
    .map((topic) => ({ topic, partitions: [...new Set(grouped.get(topic))].sort((a, b) => a - b) }))
}

/** The inverse of `byTopic`. */
export function flatten(grouped: Iterable<{ topic: string; partitions: Iterable<number> }>): TopicPartition[] {
  const list: TopicPartition[] = []
  for (const { topic, partitions } of grouped) for (const partition of partitions) list.push({ topic, partition })
  return list
}

export function formatTopicPartition(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`
}
