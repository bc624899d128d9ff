/**
 * A consumer-group member in its own process, for the scenario test (scenario.test.ts), which
 * SIGKILLs one and restarts a static one. Usage:
 * scenario-member.ts <bootstrap,…> <groupId> <topic> <instanceId|-> <sessionTimeoutMs> <open|gated>
 * A gated member connects and waits for a `go` line on stdin before it subscribes and joins (so
 * a restart measures the join, not tsx and libp2p starting). Closing stdin ends the process, so a
 * member never outlives its test. SIGTERM disconnects (commit, then leave — or, static, close).
 *
 * Prints one JSON line per fact, written before the consumer moves on, so what the parent reads
 * after the process died is everything it did (stdout to a pipe is synchronous on Linux):
 * `{ e: 'connected' }`, `{ e: 'joined', generation }`, `{ e: 'assigned' | 'revoked' | 'lost', partitions }`,
 * `{ e: 'committed', offsets: [[partition, next offset], …] }`,
 * `{ e: 'processed', partition, offset, key, value }` (from eachMessage, before it returns, so
 * before any commit can cover it), `{ e: 'closed' }`.
 */
import '@tributary/mesh/polyfills'
import { Tributary } from '@tributary/client'

const [bootstrap, groupId, topic, instance, session, gate] = process.argv.slice(2)
const sessionTimeout = Number(session)
if (
  bootstrap === undefined ||
  groupId === undefined ||
  topic === undefined ||
  instance === undefined ||
  !(sessionTimeout > 0) ||
  (gate !== 'open' && gate !== 'gated')
) {
  process.stderr.write(
    'usage: scenario-member.ts <bootstrap,…> <groupId> <topic> <instance|-> <sessionTimeoutMs> <open|gated>\n',
  )
  process.exit(2)
}
const write = (line: unknown): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`)
}
const partitionsOf = (list: Array<{ partition: number }>): number[] => list.map((tp) => tp.partition)

let go: () => void = () => {}
const released = new Promise<void>((resolve) => {
  go = resolve
})
let input = ''
process.stdin.on('data', (d: Buffer) => {
  input += d.toString()
  if (input.includes('go\n')) go()
  if (input.length > 1000) input = input.slice(-100)
})
// The parent is gone: nobody reads what this member does any more.
process.stdin.once('end', () => process.exit(3))

const mesh = await Tributary.connect({ bootstrap: bootstrap.split(','), requestTimeout: 10_000 })
const consumer = mesh.consumer({
  groupId,
  ...(instance === '-' ? {} : { groupInstanceId: instance }),
  sessionTimeout,
  heartbeatInterval: 500,
  rebalanceTimeout: 15_000,
  autoCommitInterval: 300,
  maxWaitTimeInMs: 200,
  partitionAssigners: ['cooperative-sticky'],
})
consumer.on('consumer.group_join', (e) => write({ e: 'joined', generation: e.payload.generation }))
consumer.on('consumer.partitions_assigned', (e) =>
  write({ e: 'assigned', partitions: partitionsOf(e.payload.partitions) }),
)
consumer.on('consumer.partitions_revoked', (e) =>
  write({ e: 'revoked', partitions: partitionsOf(e.payload.partitions) }),
)
consumer.on('consumer.partitions_lost', (e) => write({ e: 'lost', partitions: partitionsOf(e.payload.partitions) }))
consumer.on('consumer.commit_offsets', (e) =>
  write({ e: 'committed', offsets: e.payload.topics.map((t) => [t.partition, Number(t.offset)]) }),
)
consumer.on('consumer.crash', (e) => process.stderr.write(`consumer crash: ${String(e.payload.error)}\n`))
write({ e: 'connected' })

let stopping = false
process.once('SIGTERM', () => {
  stopping = true
  const forced = setTimeout(() => process.exit(1), 15_000)
  void consumer
    .disconnect()
    .then(() => write({ e: 'closed' }))
    .then(() => mesh.disconnect())
    .finally(() => {
      clearTimeout(forced)
      process.exit(0)
    })
})

if (gate === 'gated') await released
if (!stopping) {
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  await consumer.run({
    eachMessage: async ({ partition, message }) =>
      write({
        e: 'processed',
        partition,
        offset: Number(message.offset),
        key: message.key?.toString() ?? null,
        value: message.value?.toString() ?? null,
      }),
  })
}
