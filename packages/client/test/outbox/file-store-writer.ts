/**
 * Child process for the file store's crash test: appends batches of three records to the
 * outbox in `argv[2]` as fast as it can and prints `ok <last id>` once each append resolved
 * (was fsynced), until it is killed.
 */
import { FileOutboxStore } from '../../src/outbox/file-store.js'

const store = new FileOutboxStore(process.argv[2]!)
await store.open(() => 77)
const limits = { maxRecords: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }
const enc = new TextEncoder()
for (let i = 0; i < 1_000_000; i++) {
  const records = [0, 1, 2].map((j) => ({
    topic: 't',
    partition: null,
    key: null,
    value: enc.encode(`${i}-${j}-${'x'.repeat(200)}`),
    headers: [],
    timestamp: 1,
    size: 230,
  }))
  const ids = await store.append(records, limits)
  process.stdout.write(`ok ${ids.at(-1)}\n`)
}
