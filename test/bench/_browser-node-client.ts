/**
 * The Node references of the browser benchmark: the same SDK producer and consumer as the page
 * runs (same records, same sends, same in-flight limit), from this Node process over TCP.
 */
import { randomBytes } from 'node:crypto'
import type { Tributary } from '@tributary/client'

const KEY_BYTES = 16
const VALUE_BYTES = 100
const RING = 10_000
const TIMEOUT_MS = 120_000

const pool = randomBytes(RING * (KEY_BYTES + VALUE_BYTES))
const ring = Array.from({ length: RING }, (_, i) => {
  const at = i * (KEY_BYTES + VALUE_BYTES)
  return { key: pool.subarray(at, at + KEY_BYTES), value: pool.subarray(at + KEY_BYTES, at + KEY_BYTES + VALUE_BYTES) }
})
const messagesFrom = (start: number, count: number) =>
  Array.from({ length: count }, (_, i) => ring[(start + i) % RING]!)

/** Sends `records` records, `perSend` a call, at most `inFlight` calls outstanding; ms taken. */
export async function produceFromNode(
  mesh: Tributary,
  options: { topic: string; records: number; perSend: number; inFlight: number },
): Promise<number> {
  const { topic, records, perSend, inFlight } = options
  const producer = mesh.producer({ idempotent: true })
  try {
    const outstanding = new Set<Promise<unknown>>()
    let failure: unknown
    const started = performance.now()
    for (let sent = 0; sent < records && failure === undefined; sent += perSend) {
      const send = producer
        .send({ topic, acks: 'all', messages: messagesFrom(sent, Math.min(perSend, records - sent)) })
        .catch((err: unknown) => {
          failure ??= err
        })
        .finally(() => outstanding.delete(send))
      outstanding.add(send)
      if (outstanding.size >= inFlight) await Promise.race(outstanding)
    }
    await Promise.all(outstanding)
    if (failure !== undefined) throw failure
    return performance.now() - started
  } finally {
    await producer.disconnect()
  }
}

/** Reads partition 0 of `topic` from offset 0 until `records` records arrived; ms taken. */
export async function consumeFromNode(mesh: Tributary, options: { topic: string; records: number }): Promise<number> {
  const consumer = mesh.consumer()
  let seen = 0
  let done!: () => void
  const reached = new Promise<void>((resolve) => {
    done = resolve
  })
  consumer.assign([{ topic: options.topic, partition: 0, offset: '0' }])
  const started = performance.now()
  await consumer.run({
    eachBatch: async ({ batch }) => {
      seen += batch.messages.length
      if (seen >= options.records) done()
    },
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      reached,
      new Promise((_, fail) => {
        timer = setTimeout(
          () => fail(new Error(`Node consume: ${seen} of ${options.records} records in time`)),
          TIMEOUT_MS,
        )
      }),
    ])
    return performance.now() - started
  } finally {
    clearTimeout(timer)
    await consumer.disconnect()
  }
}
