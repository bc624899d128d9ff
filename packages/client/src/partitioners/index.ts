/**
 * Partitioners choose a record's partition. The default is Kafka's: an explicit partition wins;
 * a keyed record goes to toPositive(murmur2(key)) % partitions (the numbers of the Java client and
 * KafkaJS's DefaultPartitioner); keyless records stick to one partition until about `batchSize`
 * bytes went there, then move to another partition with a leader (Kafka's uniform sticky
 * partitioner, KIP-480/KIP-794), so they fill whole batches instead of many small ones.
 *
 * A custom partitioner has KafkaJS's shape, `() => ({ topic, partitionMetadata, message }) => number`
 * (it may also use the context the producer passes).
 */
import { murmur2, toPositive } from './murmur2.js'

export { murmur2, toPositive }

export interface PartitionerMessage {
  key: Uint8Array | null
  value: Uint8Array | null
  partition?: number | undefined
}

export interface PartitionerArgs {
  topic: string
  /** Every partition of the topic; `leader` is '' while a partition has none. */
  partitionMetadata: ReadonlyArray<{ partitionId: number; leader: string }>
  message: PartitionerMessage
}

export type Partitioner = (args: PartitionerArgs) => number

export interface PartitionerContext {
  /** The producer's batch size: how many bytes of keyless records stick to one partition. */
  batchSize: number
}

export type PartitionerFactory = (context: PartitionerContext) => Partitioner

interface Sticky {
  partition: number
  bytesLeft: number
}

function recordBytes(message: PartitionerMessage): number {
  return (message.key?.length ?? 0) + (message.value?.length ?? 0) + 16
}

/** Kafka's default partitioner. `random` is for tests. */
export function defaultPartitioner(
  context: PartitionerContext = { batchSize: 16_384 },
  random: () => number = Math.random,
): Partitioner {
  const sticky = new Map<string, Sticky>()
  const choose = (topic: string, meta: PartitionerArgs['partitionMetadata'], previous: number | undefined): number => {
    const led = meta.filter((p) => p.leader !== '')
    const pool = led.length > 0 ? led : meta
    const others = pool.length > 1 ? pool.filter((p) => p.partitionId !== previous) : pool
    const pick = others[Math.floor(random() * others.length)] ?? pool[0]!
    sticky.set(topic, { partition: pick.partitionId, bytesLeft: Math.max(1, context.batchSize) })
    return pick.partitionId
  }
  return ({ topic, partitionMetadata, message }) => {
    if (message.partition !== undefined && message.partition !== null) return message.partition
    const count = partitionMetadata.length
    if (message.key !== null) return toPositive(murmur2(message.key)) % count
    let current = sticky.get(topic)
    const stale =
      current === undefined ||
      current.bytesLeft <= 0 ||
      current.partition >= count ||
      (partitionMetadata[current.partition]?.leader === '' && partitionMetadata.some((p) => p.leader !== ''))
    if (stale) {
      choose(topic, partitionMetadata, current?.partition)
      current = sticky.get(topic)!
    }
    current!.bytesLeft -= recordBytes(message)
    return current!.partition
  }
}

/** Named like KafkaJS's `Partitioners`, so `createPartitioner: Partitioners.DefaultPartitioner` reads the same. */
export const Partitioners = {
  DefaultPartitioner: ((context: PartitionerContext) => defaultPartitioner(context)) as PartitionerFactory,
} as const
