/**
 * The accumulator batches records per partition: a send's records share a batch, a batch closes
 * at batchSize, records with other settings start a new batch, lingerMs holds a batch back, and
 * the buffer budget makes a send wait for room.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type BatchSpec, RecordAccumulator } from '../../src/producer/accumulator.ts'
import { normalizeMessage } from '../../src/producer/messages.ts'

const spec: BatchSpec = { acks: -1, compression: 'none', timeoutMs: 30_000 }
const record = (value: string, size?: number) => {
  const r = normalizeMessage({ value }, 0, 't')
  return size === undefined ? r : { ...r, size }
}

function accumulator(options: { batchSize?: number; lingerMs?: number; maxBufferedBytes?: number } = {}) {
  const ready: string[] = []
  const acc = new RecordAccumulator({
    batchSize: options.batchSize ?? 1000,
    lingerMs: options.lingerMs ?? 0,
    maxBufferedBytes: options.maxBufferedBytes ?? 1 << 20,
    onReady: (topic, partition) => ready.push(`${topic}-${partition}`),
  })
  return { acc, ready }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('client > producer > accumulator', () => {
  it('puts the records of one synchronous stretch in one batch per partition, sendable after it', async () => {
    const { acc, ready } = accumulator()
    const a = acc.append('t', 0, record('a'), spec)
    const b = acc.append('t', 0, record('b'), spec)
    const c = acc.append('t', 1, record('c'), spec)
    expect(a).toBe(b)
    expect(a.records.map((r) => new TextDecoder().decode(r.value!))).toEqual(['a', 'b'])
    expect(c).not.toBe(a)
    expect(ready).toEqual([])
    await Promise.resolve()
    expect(ready.sort()).toEqual(['t-0', 't-1'])
    expect(acc.next('t', 0)?.records).toHaveLength(2)
    expect(acc.next('t', 0)).toBeUndefined()
  })

  it('starts a new batch when a record would take a batch past batchSize', () => {
    const { acc } = accumulator({ batchSize: 300 })
    const placed = Array.from({ length: 5 }, (_, i) => acc.append('t', 0, record(`${i}`, 100), spec))
    // 61 header + 2 × 100 = 261 fits in 300; a third record would make 361, so it starts the next batch.
    expect(placed[0]).toBe(placed[1])
    expect(placed[2]).not.toBe(placed[1])
    expect(placed[0]!.closed).toBe(true)
    expect(acc.queuedBatches().map((b) => b.records.length)).toEqual([2, 2, 1])
  })

  it('gives a record larger than batchSize a batch of its own', () => {
    const { acc } = accumulator({ batchSize: 100 })
    const small = acc.append('t', 0, record('s', 10), spec)
    expect(small.closed).toBe(false)
    const big = acc.append('t', 0, record('b', 5000), spec)
    expect(big).not.toBe(small)
    expect(big.records).toHaveLength(1)
    expect(big.closed).toBe(true)
  })

  it('starts a new batch for records with other acks, compression or timeout', () => {
    const { acc } = accumulator()
    const a = acc.append('t', 0, record('a'), spec)
    const b = acc.append('t', 0, record('b'), { ...spec, compression: 'gzip' })
    const c = acc.append('t', 0, record('c'), { ...spec, compression: 'gzip', timeoutMs: 5 })
    expect(new Set([a, b, c]).size).toBe(3)
  })

  it('holds a batch for lingerMs unless it fills up or a flush begins', async () => {
    vi.useFakeTimers()
    const { acc, ready } = accumulator({ lingerMs: 50, batchSize: 1000 })
    acc.append('t', 0, record('a'), spec)
    await Promise.resolve()
    expect(ready).toEqual([])
    expect(acc.next('t', 0)).toBeUndefined()
    await vi.advanceTimersByTimeAsync(50)
    expect(ready).toEqual(['t-0'])
    expect(acc.next('t', 0)?.records).toHaveLength(1)

    acc.append('t', 1, record('b'), spec)
    acc.beginFlush()
    await Promise.resolve()
    expect(acc.next('t', 1)?.records).toHaveLength(1)
    acc.endFlush()
  })

  it('makes a send wait for buffer room until earlier batches complete', async () => {
    const { acc } = accumulator({ maxBufferedBytes: 300 })
    await acc.reserve(200)
    let admitted = false
    const waiting = acc.reserve(200).then(() => {
      admitted = true
    })
    await Promise.resolve()
    expect(admitted).toBe(false)
    acc.release(200)
    await waiting
    expect(admitted).toBe(true)
    expect(acc.bufferedBytes).toBe(200)
  })

  it('lets a send larger than the whole budget through once the buffer is empty', async () => {
    const { acc } = accumulator({ maxBufferedBytes: 100 })
    await acc.reserve(5000)
    expect(acc.bufferedBytes).toBe(5000)
  })

  it('aborts a wait for room with the signal', async () => {
    const { acc } = accumulator({ maxBufferedBytes: 100 })
    await acc.reserve(100)
    const controller = new AbortController()
    const waiting = acc.reserve(50, controller.signal).catch((e: unknown) => e)
    controller.abort(new Error('gave up'))
    expect(((await waiting) as Error).message).toBe('gave up')
    acc.release(100)
    expect(acc.bufferedBytes).toBe(0)
  })

  it('splits a batch in two keeping its accounts', () => {
    const { acc } = accumulator()
    let batch = acc.append('t', 0, record('a', 10), spec)
    for (const v of ['b', 'c', 'd', 'e']) batch = acc.append('t', 0, record(v, 10), spec)
    const [first, second] = batch.splitInTwo(3)
    expect(first.records.map((r) => new TextDecoder().decode(r.value!))).toEqual(['a', 'b', 'c'])
    expect(second.records).toHaveLength(2)
    expect(first.recordBytes + second.recordBytes).toBe(batch.recordBytes)
  })
})
