/**
 * A topic's offsets as the admin client reports them (KafkaJS's fetchTopicOffsets and
 * fetchTopicOffsetsByTimestamp): each partition's leader asked for its earliest, latest or
 * first-at-a-time offset, the whole lookup retried.
 */
import type { Cluster } from '../cluster/cluster.js'
import { InvalidArgumentError } from '../errors.js'
import type { Retrier } from '../retry.js'
import { fetchOffsets } from './describe.js'
import { checkTopicName } from './validate.js'

export interface PartitionOffsets {
  partition: number
  /** The next offset a consumer will see (= high). */
  offset: string
  high: string
  low: string
}

/** Earliest and latest offsets of every partition of a topic. */
export async function topicOffsets(
  cluster: Cluster,
  retrier: Retrier,
  topic: string,
  signal: AbortSignal | undefined,
): Promise<PartitionOffsets[]> {
  checkTopicName(topic)
  return retrier(async () => {
    const meta = await cluster.topic(topic, opts(signal))
    const partitions = meta.partitions.map((p) => p.partition)
    const [low, high] = await Promise.all([
      fetchOffsets(cluster, topic, partitions, -2, signal),
      fetchOffsets(cluster, topic, partitions, -1, signal),
    ])
    return partitions.map((partition, i) => ({
      partition,
      offset: String(high[i]!.offset),
      high: String(high[i]!.offset),
      low: String(low[i]!.offset),
    }))
  }, opts(signal))
}

/**
 * Per partition, the first offset whose record timestamp is at or after `timestamp`; where no
 * record is that recent, the latest offset (as KafkaJS answers). Without a timestamp: latest.
 */
export async function topicOffsetsByTimestamp(
  cluster: Cluster,
  retrier: Retrier,
  topic: string,
  timestamp: number | undefined,
  signal: AbortSignal | undefined,
): Promise<Array<{ partition: number; offset: string }>> {
  checkTopicName(topic)
  if (timestamp !== undefined && (!Number.isSafeInteger(timestamp) || timestamp < 0)) {
    throw new InvalidArgumentError(`timestamp must be milliseconds since the epoch, got ${String(timestamp)}`)
  }
  return retrier(async () => {
    const meta = await cluster.topic(topic, opts(signal))
    const partitions = meta.partitions.map((p) => p.partition)
    const latest = await fetchOffsets(cluster, topic, partitions, -1, signal)
    if (timestamp === undefined) return latest.map((l) => ({ partition: l.partition, offset: String(l.offset) }))
    const found = await fetchOffsets(cluster, topic, partitions, timestamp, signal)
    return found.map((f, i) => ({
      partition: f.partition,
      offset: String(f.offset >= 0 ? f.offset : latest[i]!.offset),
    }))
  }, opts(signal))
}

function opts(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal }
}
