/**
 * Page of test/web/offline-reload.test.ts: an app that sends through the SDK's IndexedDB outbox
 * (`Tributary.openOutbox`), opened as the page loads, so a reload opens the same outbox again —
 * its producer identity and sequences come back from IndexedDB. Settings come from the query
 * string (`bootstrap`, repeated; `topic`, `name`, `batch`: records per batch at most). Every
 * outbox event goes to the test through `reportOutbox`, which the test exposes on the browser
 * context (it outlives a reload); the test drives the page through `window.offline`.
 */
import { IdbOutboxStore, type OutboxEvents, type OutboxProducer, Tributary } from '@tributary/client'

/** One outbox event as the test records it: plain JSON, the error as its name and message. */
export interface ReportedEvent {
  type: keyof OutboxEvents
  /** `outbox.request` / `outbox.delivered`: where and what. */
  partition?: number | null
  baseSequence?: number
  records?: number
  baseOffset?: string
  recordIds?: number[]
  error?: string
}

/** What the outbox holds in IndexedDB, read beside it (a second connection, read-only). */
export interface StoredOutbox {
  producerId: number
  /** Records queued and not acknowledged. */
  records: number
  /** Sealed batches in id order: their sequences, fixed before any send. */
  batches: Array<{ id: number; partition: number; producerEpoch: number; baseSequence: number; records: number }>
}

export interface OfflinePage {
  /** Enqueues records with values `String(from)` … `String(from + count - 1)`, one enqueue each (as an app's sends). */
  enqueue(from: number, count: number): Promise<void>
  /** One record sent and acknowledged (acks=all): the outbox has reached the mesh and knows the topic. */
  send(value: string): Promise<string>
  pending(): Promise<number>
  stored(): Promise<StoredOutbox>
}

declare global {
  interface Window {
    /** Exposed by the test; resolves once the test recorded the event. */
    reportOutbox(event: ReportedEvent): Promise<void>
    offline: OfflinePage
  }
}

const REPORTED: Array<keyof OutboxEvents> = [
  'outbox.request',
  'outbox.delivered',
  'outbox.failed',
  'outbox.online',
  'outbox.offline',
  'outbox.retry',
]

/** More than the test's 1,000 records can make. */
const MAX_BATCHES = 10_000

async function open(): Promise<OutboxProducer> {
  const query = new URLSearchParams(location.search)
  const topic = query.get('topic') ?? ''
  const name = query.get('name') ?? 'default'
  const outbox = await Tributary.openOutbox({
    bootstrap: query.getAll('bootstrap'),
    connectionTimeout: 5_000,
    requestTimeout: 5_000,
    node: { allowInsecureWebSockets: true },
    outbox: {
      name,
      maxBatchRecords: Number(query.get('batch')),
      retry: { initialRetryTime: 100, maxRetryTime: 1_000 },
    },
  })
  for (const type of REPORTED) {
    outbox.on(type, ({ payload }) => {
      const p = payload as Partial<OutboxEvents['outbox.request'] & OutboxEvents['outbox.delivered']> & {
        error?: Error
      }
      void window.reportOutbox({
        type,
        ...(p.partition === undefined ? {} : { partition: p.partition }),
        ...(p.baseSequence === undefined ? {} : { baseSequence: p.baseSequence }),
        ...(p.records === undefined ? {} : { records: p.records }),
        ...(p.baseOffset === undefined ? {} : { baseOffset: p.baseOffset }),
        ...(p.recordIds === undefined ? {} : { recordIds: p.recordIds }),
        ...(p.error === undefined ? {} : { error: `${p.error.name}: ${p.error.message}` }),
      })
    })
  }
  window.offline = {
    async enqueue(from, count) {
      for (let i = from; i < from + count; i++) await outbox.enqueue({ topic, messages: [{ value: String(i) }] })
    },
    async send(value) {
      const [sent] = await outbox.send({ topic, messages: [{ value }] })
      return sent!.baseOffset
    },
    pending: () => outbox.pending(),
    async stored() {
      // The SDK's own store class on a second connection: the outbox's rows as it reads them.
      const store = new IdbOutboxStore(name)
      try {
        const { meta } = await store.open(() => {
          throw new Error('the outbox was opened before: it has a producer id')
        })
        const batches = await store.batches(MAX_BATCHES)
        return {
          producerId: meta.producerId,
          records: meta.records,
          batches: batches.map((b) => ({
            id: b.id,
            partition: b.partition,
            producerEpoch: b.producerEpoch,
            baseSequence: b.baseSequence,
            records: b.records.length,
          })),
        }
      } finally {
        store.close()
      }
    },
  }
  return outbox
}

open().catch((err: unknown) => {
  void window.reportOutbox({ type: 'outbox.failed', error: `open: ${String(err)}` })
})
