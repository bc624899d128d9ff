/**
 * Page of test/web/static-member.test.ts: an SDK consumer (light client over WebSockets) in a
 * consumer group with a static `groupInstanceId`, started as the page loads, so a reload starts
 * it again with the same instance id. Settings come from the query string (`bootstrap`, repeated;
 * `group`, `topic`, `instance`, `session`). Everything it sees goes to the test through functions
 * the test exposes on the page (they outlive a reload): each processed record, each group event.
 */
import { Tributary } from '@tributary/client'

export interface ProcessedRecord {
  partition: number
  offset: string
  value: string
}

export interface GroupEvent {
  type: 'group_join' | 'rebalancing' | 'partitions_assigned' | 'partitions_revoked' | 'partitions_lost' | 'crash'
  detail: string
}

declare global {
  interface Window {
    /** Exposed by the test; resolves once the test recorded the record. */
    reportProcessed(record: ProcessedRecord): Promise<void>
    reportGroupEvent(event: GroupEvent): Promise<void>
  }
}

async function start(): Promise<void> {
  const query = new URLSearchParams(location.search)
  const bootstrap = query.getAll('bootstrap')
  const groupId = query.get('group') ?? ''
  const topic = query.get('topic') ?? ''
  const groupInstanceId = query.get('instance') ?? ''
  const sessionTimeout = Number(query.get('session'))
  const mesh = await Tributary.connect({
    bootstrap,
    connectionTimeout: 30_000,
    node: { allowInsecureWebSockets: true },
  })
  const consumer = mesh.consumer({
    groupId,
    groupInstanceId,
    sessionTimeout,
    heartbeatInterval: 500,
    rebalanceTimeout: 10_000,
    autoCommitInterval: 100,
    maxWaitTimeInMs: 200,
  })
  const report = (type: GroupEvent['type'], payload: unknown): void => {
    void window.reportGroupEvent({ type, detail: JSON.stringify(payload) })
  }
  consumer.on('consumer.group_join', ({ payload }) => report('group_join', payload))
  consumer.on('consumer.rebalancing', ({ payload }) => report('rebalancing', payload))
  consumer.on('consumer.partitions_assigned', ({ payload }) => report('partitions_assigned', payload))
  consumer.on('consumer.partitions_revoked', ({ payload }) => report('partitions_revoked', payload))
  consumer.on('consumer.partitions_lost', ({ payload }) => report('partitions_lost', payload))
  consumer.on('consumer.crash', ({ payload }) => report('crash', String(payload.error)))
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      await window.reportProcessed({
        partition,
        offset: message.offset,
        value: new TextDecoder().decode(message.value ?? new Uint8Array()),
      })
    },
  })
}

start().catch((err: unknown) => {
  void window.reportGroupEvent({ type: 'crash', detail: String(err) })
})
