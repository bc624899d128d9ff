/** Outbox instrumentation events and their payloads (listen with `outbox.on(type, listener)`). */
export interface OutboxEvents {
  /** Records were durably queued. */
  'outbox.enqueued': { topic: string; recordIds: number[] }
  /**
   * A batch was acknowledged (acks=all): its records are at baseOffset … baseOffset + count − 1,
   * in recordIds' order. baseOffset is '-1' for a batch acknowledged before a crash or reload
   * that the next producer found appended, earlier than the leader still knows offsets for.
   */
  'outbox.delivered': { topic: string; partition: number; baseOffset: string; recordIds: number[] }
  /** Records the mesh refused for good (too large, invalid, no such partition); they left the outbox. */
  'outbox.failed': { topic: string; partition: number | null; recordIds: number[]; error: Error }
  /** The mesh answered again after a failure to reach it. */
  'outbox.online': Record<string, never>
  /** The mesh cannot be reached (the browser went offline, no peer answers); delivery retries with backoff. */
  'outbox.offline': { error: Error | undefined }
  /** A delivery round failed (mesh out of reach, no leader yet, unknown topic, …); the next one is in `delayMs`. */
  'outbox.retry': { error: Error; delayMs: number }
  /** A produce request is about to be sent. */
  'outbox.request': { topic: string; partition: number; records: number; baseSequence: number }
}

export const OUTBOX_EVENTS: ReadonlyArray<keyof OutboxEvents> = [
  'outbox.enqueued',
  'outbox.delivered',
  'outbox.failed',
  'outbox.online',
  'outbox.offline',
  'outbox.retry',
  'outbox.request',
]
