/** Consumer instrumentation events and their payloads. */
export interface ConsumerEvents {
  'consumer.connect': Record<string, never>
  'consumer.disconnect': Record<string, never>
  'consumer.stop': Record<string, never>
  /** The consumer stopped on an error it cannot get past (`restart` is false: run again to resume). */
  'consumer.crash': { error: Error; groupId: string | undefined; restart: boolean }
  /** A fetch request was sent to a partition leader. */
  'consumer.fetch_start': {
    leader: string
    partitions: Array<{ topic: string; partition: number; fetchOffset: number }>
  }
  /** A fetch answered (or failed). `bufferedPartitions` counts partitions holding fetched, unprocessed data. */
  'consumer.fetch': {
    leader: string
    numberOfBatches: number
    bytes: number
    durationMs: number
    bufferedPartitions: number
    fetchesInFlight: number
    error: Error | undefined
  }
  /** The consumer joined its group (KafkaJS GROUP_JOIN; the coordinator assigns, so no leader flag). */
  'consumer.group_join': { groupId: string; memberId: string; generation: number; groupProtocol: string }
  /** The group is rebalancing and this consumer gives up some partitions. */
  'consumer.rebalancing': { groupId: string; memberId: string }
  /** Offsets were committed to the group. */
  'consumer.commit_offsets': {
    groupId: string
    topics: Array<{ topic: string; partition: number; offset: string }>
  }
  /** Partitions newly assigned to this consumer, each starting at its committed offset (or reset policy). */
  'consumer.partitions_assigned': { groupId: string; partitions: Array<{ topic: string; partition: number }> }
  /** Partitions given up in a rebalance, after their positions were committed. */
  'consumer.partitions_revoked': { groupId: string; partitions: Array<{ topic: string; partition: number }> }
  /** Partitions lost without a commit (the session expired; another member may own them already). */
  'consumer.partitions_lost': { groupId: string; partitions: Array<{ topic: string; partition: number }> }
  'consumer.start_batch_process': BatchProcessPayload
  'consumer.end_batch_process': BatchProcessPayload & { duration: number }
}

export interface BatchProcessPayload {
  topic: string
  partition: number
  highWatermark: string
  offsetLag: string
  offsetLagLow: string
  batchSize: number
  firstOffset: string | null
  lastOffset: string | null
}

export const CONSUMER_EVENTS: ReadonlyArray<keyof ConsumerEvents> = [
  'consumer.connect',
  'consumer.disconnect',
  'consumer.stop',
  'consumer.crash',
  'consumer.fetch_start',
  'consumer.fetch',
  'consumer.group_join',
  'consumer.rebalancing',
  'consumer.commit_offsets',
  'consumer.partitions_assigned',
  'consumer.partitions_revoked',
  'consumer.partitions_lost',
  'consumer.start_batch_process',
  'consumer.end_batch_process',
]
