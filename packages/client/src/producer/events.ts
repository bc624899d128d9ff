import type { Acks } from '../broker.js'

/** Producer instrumentation events and their payloads. */
export interface ProducerEvents {
  'producer.connect': Record<string, never>
  'producer.disconnect': Record<string, never>
  /** One per `send` / `sendBatch`, when it settles. */
  'producer.send': { topics: string[]; messages: number; durationMs: number; error: Error | undefined }
  /** One per produce request to a leader (each attempt of a batch). */
  'producer.request': {
    topic: string
    partition: number
    leader: string
    records: number
    bytes: number
    acks: Acks
    retryCount: number
    durationMs: number
    error: Error | undefined
  }
}

export const PRODUCER_EVENTS: ReadonlyArray<keyof ProducerEvents> = [
  'producer.connect',
  'producer.disconnect',
  'producer.send',
  'producer.request',
]
