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
  'consumer.start_batch_process',
  'consumer.end_batch_process',
]
