/**
 * Handing fetched data to eachBatch: a batch's records are decoded only if the handler reads them,
 * yet its offsets and emptiness are what decoding them would say; data that fails to decode under
 * the handler counts against the fetch (refetched after a backoff), not against the handler's
 * retry budget. The runner is driven directly with fetched chunks as a leader would return them.
 */
import { crc32c, encodeRecordBatchSync } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { CONSUMER_EVENTS, type ConsumerEvents } from '../../src/consumer/events.ts'
import { PartitionState } from '../../src/consumer/partition-state.ts'
import { type EachBatchPayload, Runner } from '../../src/consumer/runner.ts'
import { Instrumentation } from '../../src/instrumentation.ts'
import { resolveRetryOptions } from '../../src/retry.ts'

const utf8 = (s: string) => new TextEncoder().encode(s)

function batch(baseOffset: number, values: string[]): Uint8Array {
  return encodeRecordBatchSync({ baseOffset, records: values.map((v) => ({ key: null, value: utf8(v) })) })
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let pos = 0
  for (const p of parts) {
    out.set(p, pos)
    pos += p.length
  }
  return out
}

const controllers: AbortController[] = []
afterEach(() => {
  for (const c of controllers.splice(0)) c.abort()
})

/** A runner whose eachBatch is `handler`; resolves each time a partition's data was handled. */
function runner(handler: (payload: EachBatchPayload) => Promise<void>) {
  const controller = new AbortController()
  controllers.push(controller)
  const fatal: Error[] = []
  let processed: () => void = () => {}
  const instrumentation = new Instrumentation<ConsumerEvents>(CONSUMER_EVENTS)
  const r = new Runner({
    handlers: { eachBatch: handler, eachBatchAutoResolve: true },
    concurrency: 1,
    retry: resolveRetryOptions({ retries: 2, initialRetryTime: 1 }),
    instrumentation,
    pause: () => () => {},
    onProcessed: () => processed(),
    onProgress: () => {},
    onFatal: (err) => fatal.push(err),
    signal: controller.signal,
  })
  void r.run()
  const handle = (state: PartitionState, records: Uint8Array, highWatermark: number): Promise<void> =>
    new Promise((resolve) => {
      processed = resolve
      state.buffered = { records, fetchOffset: state.position!, highWatermark, logStartOffset: 0 }
      r.enqueue(state)
    })
  return { handle, fatal, instrumentation }
}

function partition(position: number): PartitionState {
  const state = new PartitionState('t', 0)
  state.position = position
  return state
}

describe('client > consumer > runner (eachBatch)', () => {
  it('gives offsets without decoding, the same as the decoded messages, and moves past the batch', async () => {
    const seen: Array<{ first: string | null; last: string; empty: boolean; lag: string }> = []
    const { handle, instrumentation } = runner(async ({ batch }) => {
      seen.push({
        first: batch.firstOffset(),
        last: batch.lastOffset(),
        empty: batch.isEmpty(),
        lag: batch.offsetLag(),
      })
      seen.push({
        first: batch.messages[0]!.offset,
        last: batch.messages.at(-1)!.offset,
        empty: batch.messages.length === 0,
        lag: batch.offsetLag(),
      })
    })
    const sizes: Array<[number, string | null]> = []
    instrumentation.on('consumer.start_batch_process', ({ payload }) => {
      sizes.push([payload.batchSize, payload.lastOffset])
    })
    const state = partition(11)
    await handle(state, concat(batch(10, ['a', 'b', 'c']), batch(13, ['d', 'e'])), 20)
    expect(sizes).toEqual([[4, '14']])
    expect(seen).toEqual([
      { first: '11', last: '14', empty: false, lag: '5' },
      { first: '11', last: '14', empty: false, lag: '5' },
    ])
    expect(state.position).toBe(15)
  })

  it('calls no handler for data with no record at or after the position, and steps past it', async () => {
    let calls = 0
    const { handle } = runner(async () => {
      calls++
    })
    const state = partition(12)
    const marker = encodeRecordBatchSync({ baseOffset: 12, control: true, records: [{ value: null }] })
    await handle(state, concat(batch(10, ['a', 'b']), marker), 13)
    expect(calls).toBe(0)
    expect(state.position).toBe(13)
  })

  it('counts records that fail to decode under the handler against the fetch, not the handler', async () => {
    // A batch whose first record's length varint claims more than the batch holds, under a valid CRC.
    const corrupt = (baseOffset: number): Uint8Array => {
      const bad = batch(baseOffset, ['b', 'c'])
      bad[61] = 0x7e
      new DataView(bad.buffer, bad.byteOffset).setUint32(17, crc32c(bad.subarray(21)))
      return bad
    }
    let calls = 0
    const { handle, fatal } = runner(async ({ batch }) => {
      calls++
      void batch.messages
    })
    const state = partition(0)
    await handle(state, corrupt(0), 2)
    expect([calls, state.failures, state.handlerFailures, state.position]).toEqual([1, 1, 0, 0])
    await handle(state, concat(batch(0, ['a']), corrupt(1)), 3)
    expect([calls, state.failures, state.handlerFailures, state.position]).toEqual([2, 2, 0, 0])
    expect(fatal).toEqual([])
  })
})
