/**
 * The outbox store contract, one suite for every backend (memory in Node, IndexedDB in
 * Chromium): each step is atomic, the size bound is checked inside the append, and what a store
 * holds survives reopening it.
 */
import { describe, expect, it } from 'vitest'
import { OutboxFullError } from '../../src/outbox/errors.js'
import type { OutboxStore, StoredRecord } from '../../src/outbox/store.js'

export interface StoreFactory {
  /** A new, empty store. */
  create(): OutboxStore
  /** The same outbox opened anew (after `close`), as a reloaded page would. */
  reopen(previous: OutboxStore): OutboxStore
}

const enc = new TextEncoder()
const limits = { maxRecords: 1_000, maxBytes: 1_000_000 }

export function record(value: string, size = 24 + value.length): Omit<StoredRecord, 'id'> {
  return { topic: 't', partition: null, key: null, value: enc.encode(value), headers: [], timestamp: 1_000, size }
}

export function describeOutboxStore(backend: string, factory: StoreFactory): void {
  describe(`outbox store > ${backend}`, () => {
    it('picks the producer id once and keeps it across reopening', async () => {
      const store = factory.create()
      const first = await store.open(() => 42)
      expect(first.meta).toEqual({ producerId: 42, nextRecordId: 1, records: 0, bytes: 0 })
      store.close()
      const again = factory.reopen(store)
      expect((await again.open(() => 7)).meta.producerId).toBe(42)
      again.close()
    })

    it('appends with consecutive ids, told before the write, and reads unsealed records in order within limits', async () => {
      const store = factory.create()
      await store.open(() => 1)
      let told: number[] = []
      const ids = await store.append([record('a'), record('b'), record('c')], limits, (i) => {
        told = i
      })
      expect(ids).toEqual([1, 2, 3])
      expect(told).toEqual(ids)
      expect(await store.append([record('d', 500)], limits)).toEqual([4])
      expect(await store.meta()).toMatchObject({ records: 4, bytes: 25 * 3 + 500, nextRecordId: 5 })
      expect((await store.unsealed(2, 1e9)).map((r) => r.id)).toEqual([1, 2])
      expect((await store.unsealed(10, 100)).map((r) => r.id)).toEqual([1, 2, 3])
      // One record is always returned, even beyond the byte limit.
      const big = factory.create()
      await big.open(() => 1)
      await big.append([record('x', 5_000)], limits)
      expect(await big.unsealed(10, 100)).toHaveLength(1)
      store.close()
      big.close()
    })

    it('reads many records in order across its read chunks, and removes scattered ids exactly', async () => {
      const store = factory.create()
      await store.open(() => 1)
      for (let i = 0; i < 5; i++) {
        await store.append(
          Array.from({ length: 500 }, (_, j) => record(`r${i * 500 + j}`, 100)),
          { maxRecords: 10_000, maxBytes: 10_000_000 },
        )
      }
      const all = await store.unsealed(10_000, Number.MAX_SAFE_INTEGER)
      expect(all.map((r) => r.id)).toEqual(Array.from({ length: 2_500 }, (_, i) => i + 1))
      expect(await store.unsealed(2_400, Number.MAX_SAFE_INTEGER)).toHaveLength(2_400)
      expect(await store.unsealed(10_000, 100 * 1_234)).toHaveLength(1_234)
      const gone = [
        ...Array.from({ length: 10 }, (_, i) => i + 1),
        20,
        ...Array.from({ length: 1_200 }, (_, i) => i + 22),
      ]
      await store.commit({ deleteRecordIds: gone.reverse() })
      const left = (await store.unsealed(10_000, Number.MAX_SAFE_INTEGER)).map((r) => r.id)
      const removed = new Set(gone)
      expect(left).toEqual(all.map((r) => r.id).filter((id) => !removed.has(id)))
      store.close()
    })

    it('keeps a copy: the caller may reuse its buffers', async () => {
      const store = factory.create()
      await store.open(() => 1)
      const value = enc.encode('abc')
      await store.append([{ ...record('abc'), value }], limits)
      value.fill(0)
      const [stored] = await store.unsealed(1, 1e9)
      expect(new TextDecoder().decode(stored!.value!)).toBe('abc')
      store.close()
    })

    it('refuses an append beyond its records or bytes with OutboxFullError, writing none of it', async () => {
      const store = factory.create()
      await store.open(() => 1)
      const small = { maxRecords: 3, maxBytes: 200 }
      await store.append([record('a'), record('b')], small)
      await expect(store.append([record('c'), record('d')], small)).rejects.toBeInstanceOf(OutboxFullError)
      await expect(store.append([record('c', 190)], small)).rejects.toBeInstanceOf(OutboxFullError)
      expect(await store.meta()).toMatchObject({ records: 2, bytes: 50, nextRecordId: 3 })
      expect((await store.unsealed(10, 1e9)).map((r) => r.id)).toEqual([1, 2])
      expect(await store.append([record('c')], small)).toEqual([3])
      store.close()
    })

    it('commits a seal and a delivery atomically, and keeps batches, sequences and topics across reopening', async () => {
      const store = factory.create()
      await store.open(() => 9)
      const ids = await store.append([record('a'), record('b'), record('c')], limits)
      const records = await store.unsealed(10, 1e9)
      const batch = (from: number, to: number) => ({
        id: ids[from]!,
        topic: 't',
        partition: 0,
        producerEpoch: 0,
        baseSequence: from,
        records: records.slice(from, to).map((r) => ({ ...r, partition: 0 })),
        bytes: records.slice(from, to).reduce((n, r) => n + r.size, 0),
      })
      await store.commit({
        putBatches: [batch(2, 3), batch(0, 2)],
        deleteRecordIds: ids,
        putSequences: [{ topic: 't', partition: 0, producerEpoch: 0, epochFrom: 0, next: 3 }],
        putTopics: [{ topic: 't', partitions: 4 }],
      })
      expect(await store.unsealed(10, 1e9)).toEqual([])
      expect((await store.batches(10)).map((b) => b.id)).toEqual([ids[0], ids[2]])
      expect((await store.batches(1)).map((b) => b.id)).toEqual([ids[0]])
      await store.commit({ deleteBatchIds: [ids[0]!], released: { records: 2, bytes: 50 } })
      expect(await store.meta()).toMatchObject({ records: 1, bytes: 25 })
      store.close()

      const again = factory.reopen(store)
      const snapshot = await again.open(() => 1)
      expect(snapshot.meta).toMatchObject({ producerId: 9, records: 1, bytes: 25, nextRecordId: 4 })
      expect(snapshot.sequences).toEqual([{ topic: 't', partition: 0, producerEpoch: 0, epochFrom: 0, next: 3 }])
      expect(snapshot.topics).toEqual([{ topic: 't', partitions: 4 }])
      const [left] = await again.batches(10)
      expect(left?.records.map((r) => new TextDecoder().decode(r.value!))).toEqual(['c'])
      again.close()
    })
  })
}
