/**
 * A group consumer in its own process, for tests that kill it (SIGKILL: no leave, no commit).
 * Usage: consumer-process.ts <bootstrap multiaddr> <groupId> <topic>. Prints JSON lines:
 * `{ "owned": ["topic-p", …] }` every 100 ms and `{ "processed": "topic-p@offset" }` per record.
 */
import '@tributary/mesh/polyfills'
import { Tributary } from '@tributary/client'

const [bootstrap, groupId, topic] = process.argv.slice(2)
if (bootstrap === undefined || groupId === undefined || topic === undefined) {
  process.stderr.write('usage: consumer-process.ts <bootstrap> <groupId> <topic>\n')
  process.exit(2)
}
const write = (line: unknown): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`)
}
const mesh = await Tributary.connect({ bootstrap: [bootstrap], requestTimeout: 10_000 })
const consumer = mesh.consumer({
  groupId,
  sessionTimeout: 3_000,
  heartbeatInterval: 300,
  rebalanceTimeout: 10_000,
  autoCommitInterval: 200,
  maxWaitTimeInMs: 200,
})
await consumer.subscribe({ topics: [topic], fromBeginning: true })
await consumer.run({
  eachMessage: async ({ partition, message }) => write({ processed: `${topic}-${partition}@${message.offset}` }),
})
setInterval(() => {
  write({ owned: consumer.assignment().flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`)) })
}, 100)
