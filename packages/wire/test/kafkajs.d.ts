/** The KafkaJS internals the cross-check tests load with createRequire (CommonJS, untyped). */

interface KafkaJSEncoder {
  readonly buffer: Buffer
  writeVarInt(value: number): KafkaJSEncoder
  writeVarLong(value: number): KafkaJSEncoder
}

type KafkaJSEncoderClass = new () => KafkaJSEncoder

interface KafkaJSRecordInput {
  offsetDelta?: number
  timestampDelta?: number
  key: Buffer | null
  value: Buffer | null
  headers?: Record<string, Buffer | Buffer[]>
}

interface KafkaJSBatchInput {
  compression?: number
  firstOffset?: string
  firstTimestamp?: number
  maxTimestamp?: number
  partitionLeaderEpoch?: number
  lastOffsetDelta?: number
  transactional?: boolean
  producerId?: number
  producerEpoch?: number
  firstSequence?: number
  records: KafkaJSEncoder[]
}

interface KafkaJSDecodedRecord {
  attributes: number
  timestamp: string
  offset: string
  key: Buffer | null
  value: Buffer | null
  headers: Record<string, Buffer | null | Array<Buffer | null>>
}

interface KafkaJSDecodedBatch {
  firstOffset: string
  firstTimestamp: string
  maxTimestamp: string
  partitionLeaderEpoch: number
  inTransaction: boolean
  isControlBatch: boolean
  lastOffsetDelta: number
  producerId: string
  producerEpoch: number
  firstSequence: number
  timestampType: number
  records: KafkaJSDecodedRecord[]
}
