/**
 * One member of the groups benchmark's consumer group, in its own process so the bench can
 * SIGKILL it and so eight members consume on eight event loops. Spawned with an IPC channel;
 * argv: <bootstrap multiaddrs, comma-separated> <groupId> <topic> <instanceId or '-'> <sessionTimeoutMs>
 * <'gated' | 'open'>. A gated member joins and takes its partitions but pauses each one at its
 * first batch, reading nothing, until the parent sends `{ kind: 'go' }`: so the bench times the
 * group reading, not the members starting and joining.
 * Sends the parent (timestamps are wall-clock ms, performance.timeOrigin + now, comparable
 * across processes on one machine):
 * - `{ kind: 'joining', at }` just before run(), i.e. when the member starts to join;
 * - `{ kind: 'owned', at, partitions }` whenever its assignment changes (as the consumer applies it);
 * - `{ kind: 'read', at, partition, next }`: a partition's position (the offset after what was
 *   read, past control batches) and when its latest batch was read, every 50 ms for the
 *   partitions that moved;
 * - `{ kind: 'fetched', fetches, bytes, withData, partitions }` with them: since the go, fetches
 *   answered, record bytes they carried, partitions answered with data, partitions asked.
 * With GROUPS_TRACE=<dir> set, each member appends its group events to <dir>/<pid>.
 * SIGTERM disconnects (a static member sends no LeaveGroup, so it keeps its membership) and exits.
 * Each member applies `tuneGcForStreaming()` (@tributary/client/gc-tuning), as the README advises
 * for an application consuming at volume.
 */
import '@tributary/mesh/polyfills'
import { Tributary } from '@tributary/client'
import { tuneGcForStreaming } from '@tributary/client/gc-tuning'

const [bootstrap, groupId, topic, instance, session, gate] = process.argv.slice(2)
const sessionTimeout = Number(session)
if (
  bootstrap === undefined ||
  groupId === undefined ||
  topic === undefined ||
  instance === undefined ||
  !(sessionTimeout > 0) ||
  (gate !== 'gated' && gate !== 'open') ||
  process.send === undefined
) {
  process.stderr.write(
    'usage (with an IPC channel): _groups-member.ts <bootstrap,…> <groupId> <topic> <instance|-> <sessionMs> <gated|open>\n',
  )
  process.exit(2)
}
const send = process.send.bind(process)
// What the README advises for a process consuming at volume, as the peers and the perf tools do for
// themselves: without it each member runs a major GC every few hundred ms while reading.
tuneGcForStreaming()
const now = (): number => performance.timeOrigin + performance.now()
/**
 * Progress is reported in batches every REPORT_MS, each partition's with the time its latest batch
 * was read: one IPC message per batch would cost as much as reading it.
 */
const REPORT_MS = 50
/** When each partition's latest batch was handled (after the go). */
const lastReadAt = new Map<number, number>()
const reportedNext = new Map<number, number>()
let positions: () => Array<{ partition: number; offset: string | undefined }> = () => []
/** Fetches answered since the go, and the bytes and partitions with data they carried: is a fetch big enough? */
const fetched = { fetches: 0, bytes: 0, withData: 0, partitions: 0 }
const flushProgress = (): void => {
  let moved = false
  // The position, not the last batch's offset: a control batch at a partition's end (the epoch
  // marker of a leader elected after the produce) reaches no handler, but the position steps past
  // it, as the end offsets the bench waits for do; the bench waited for ever on such a partition.
  for (const { partition, offset } of positions()) {
    const at = lastReadAt.get(partition)
    if (offset === undefined || at === undefined) continue
    const next = Number(offset)
    if (next <= (reportedNext.get(partition) ?? -1)) continue
    reportedNext.set(partition, next)
    send({ kind: 'read', at, partition, next })
    moved = true
  }
  if (moved) send({ kind: 'fetched', ...fetched })
}
const reporter = setInterval(flushProgress, REPORT_MS)

const mesh = await Tributary.connect({ bootstrap: bootstrap.split(','), requestTimeout: 10_000 })
const consumer = mesh.consumer({
  groupId,
  ...(instance === '-' ? {} : { groupInstanceId: instance }),
  sessionTimeout,
  heartbeatInterval: 300,
  rebalanceTimeout: 10_000,
  autoCommitInterval: 500,
  maxWaitTimeInMs: 500,
  partitionAssigners: ['cooperative-sticky'],
})
// A crash is the member's own business (the SDK restarts it), but the bench shows why in its error.
consumer.on('consumer.crash', (e) => {
  process.stderr.write(`consumer crash: ${String(e.payload.error)}\n`)
})
if (process.env.GROUPS_TRACE) {
  const { appendFileSync } = await import('node:fs')
  const file = `${process.env.GROUPS_TRACE}/${process.pid}`
  for (const ev of [
    'consumer.group_join',
    'consumer.rebalancing',
    'consumer.partitions_assigned',
    'consumer.partitions_revoked',
    'consumer.commit_offsets',
  ] as const) {
    consumer.on(ev as 'consumer.group_join', (e) =>
      appendFileSync(file, `${now().toFixed(1)} ${instance} ${ev} ${JSON.stringify(e.payload).slice(0, 200)}\n`),
    )
  }
}
consumer.on('consumer.fetch', ({ payload }) => {
  if (!open) return
  fetched.fetches++
  fetched.bytes += payload.bytes
  fetched.withData += payload.numberOfBatches
})
consumer.on('consumer.fetch_start', ({ payload }) => {
  if (open) fetched.partitions += payload.partitions.length
})
// The assignment is reported when it changes (the consumer's own events, emitted as it applies
// one), rather than polled: eight members polling every few ms would add to what the bench measures.
let last = ''
const reportOwned = (): void => {
  const partitions = consumer
    .assignment()
    .flatMap((t) => t.partitions)
    .sort((a, b) => a - b)
  const key = partitions.join(',')
  if (key === last) return
  last = key
  send({ kind: 'owned', at: now(), partitions })
}
for (const ev of ['consumer.partitions_assigned', 'consumer.partitions_revoked', 'consumer.partitions_lost'] as const)
  consumer.on(ev, reportOwned)
reportOwned()
positions = () => consumer.positions()
await consumer.subscribe({ topics: [topic], fromBeginning: true })
send({ kind: 'joining', at: now() })
let open = gate === 'open'
/** Resumes of the partitions paused while gated (a paused batch's records stay unread). */
const held: Array<() => void> = []
process.on('message', (msg: { kind?: string }) => {
  if (msg.kind !== 'go' || open) return
  open = true
  for (const resume of held.splice(0)) resume()
})
await consumer.run({
  eachBatch: async ({ batch, pause }) => {
    if (!open) {
      held.push(pause())
      return
    }
    lastReadAt.set(batch.partition, now())
  },
})

process.once('SIGTERM', () => {
  clearInterval(reporter)
  flushProgress()
  const forced = setTimeout(() => process.exit(1), 10_000)
  void consumer
    .disconnect()
    .then(() => mesh.disconnect())
    .finally(() => {
      clearTimeout(forced)
      process.exit(0)
    })
})
// The parent gone (its IPC channel closed): nothing to report to, so stop.
process.once('disconnect', () => process.exit(0))
