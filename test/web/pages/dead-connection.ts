/**
 * Page of test/web/dead-connection.test.ts: an app sending through the SDK's IndexedDB outbox
 * (`Tributary.openOutbox`) with the SDK's default timeouts and retries — what a user gets — so the
 * test sees how long a record takes once the network is back after a silently dead connection.
 * Settings come from the query string (`bootstrap`, repeated; `topic`); the test drives the page
 * through `window.dead`.
 */
import { type OutboxProducer, Tributary } from '@tributary/client'

export interface DeadConnectionPage {
  /** One record sent and acknowledged (acks=all); resolves with its offset. */
  send(value: string): Promise<string>
  /** Queues one record (durable at once) and resolves with its id, before any delivery. */
  enqueue(value: string): Promise<number>
  /** Outbox events and the browser's `online` / `offline` events: times (`performance.now()`) and errors. */
  events(): Array<{ type: string; at: number; recordIds?: number[]; error?: string }>
  pending(): Promise<number>
}

declare global {
  interface Window {
    dead: DeadConnectionPage
  }
}

/** Events kept for the test: a few per record; the test sends a handful. */
const MAX_EVENTS = 1_000

async function open(): Promise<OutboxProducer> {
  const query = new URLSearchParams(location.search)
  const topic = query.get('topic') ?? ''
  const outbox = await Tributary.openOutbox({
    bootstrap: query.getAll('bootstrap'),
    node: { allowInsecureWebSockets: true },
    outbox: { name: 'dead-connection' },
  })
  const events: ReturnType<DeadConnectionPage['events']> = []
  for (const type of [
    'outbox.request',
    'outbox.delivered',
    'outbox.retry',
    'outbox.online',
    'outbox.offline',
  ] as const) {
    outbox.on(type, ({ payload }) => {
      if (events.length >= MAX_EVENTS) return
      const p = payload as { recordIds?: number[]; error?: Error }
      events.push({
        type,
        at: performance.now(),
        ...(p.recordIds === undefined ? {} : { recordIds: p.recordIds }),
        ...(p.error === undefined ? {} : { error: `${p.error.name}: ${p.error.message}` }),
      })
    })
  }
  for (const type of ['online', 'offline'] as const) {
    window.addEventListener(type, () => {
      if (events.length < MAX_EVENTS) events.push({ type, at: performance.now() })
    })
  }
  window.dead = {
    async send(value) {
      const [sent] = await outbox.send({ topic, messages: [{ value }] })
      return sent!.baseOffset
    },
    async enqueue(value) {
      const { recordIds } = await outbox.enqueue({ topic, messages: [{ value }] })
      return recordIds[0]!
    },
    events: () => events,
    pending: () => outbox.pending(),
  }
  return outbox
}

open().catch((err: unknown) => {
  document.body.dataset.error = String(err)
})
