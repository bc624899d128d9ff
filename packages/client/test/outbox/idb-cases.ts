/**
 * What the IndexedDB outbox store does beyond the store contract, run in Chromium and (fast,
 * extra) under fake-indexeddb: one row per append, records removed from inside rows, and an
 * outbox written by schema version 1 (one row per record) opened, moved and drained.
 */
import { encodeRecordBatchSync } from '@tributary/wire'
import { openDB } from 'idb'
import { afterAll, describe, expect, it } from 'vitest'
import { packedCount } from '../../src/outbox/idb-packing.js'
import type { QueuedRow } from '../../src/outbox/idb-rows.js'
import { IdbOutboxStore, outboxDatabaseName } from '../../src/outbox/idb-store.js'
import { OutboxProducer } from '../../src/outbox/outbox-producer.js'
import type { PartitionSequence, SealedBatch, StoredRecord } from '../../src/outbox/store.js'
import { FakeLeader } from './fake-leader.js'
import { record } from './store-contract.js'

const limits = { maxRecords: 100_000, maxBytes: 100_000_000 }
const text = new TextDecoder()
const decoded = (r: { value: Uint8Array | null }) => text.decode(r.value!)
const values = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`)

/** The rows of the outbox's `queued` store, read directly. */
async function queuedRows(name: string): Promise<QueuedRow[]> {
  const db = await openDB(outboxDatabaseName(name))
  try {
    return (await db.getAll('queued')) as QueuedRow[]
  } finally {
    db.close()
  }
}

/** Writes an outbox as schema version 1 did: one `records` row per record, keyed by its id. */
async function writeV1Outbox(
  name: string,
  content: {
    producerId: number
    records: StoredRecord[]
    batches: SealedBatch[]
    sequences: PartitionSequence[]
    topics: Array<{ topic: string; partitions: number }>
  },
): Promise<void> {
  const db = await openDB(outboxDatabaseName(name), 1, {
    upgrade(database) {
      database.createObjectStore('meta')
      database.createObjectStore('records', { keyPath: 'id' })
      database.createObjectStore('batches', { keyPath: 'id' })
      database.createObjectStore('sequences', { keyPath: ['topic', 'partition'] })
      database.createObjectStore('topics', { keyPath: 'topic' })
    },
  })
  try {
    const tx = db.transaction(['meta', 'records', 'batches', 'sequences', 'topics'], 'readwrite')
    const all = [...content.records, ...content.batches.flatMap((b) => b.records)]
    const last = Math.max(0, ...all.map((r) => r.id))
    await Promise.all([
      tx.objectStore('meta').put(
        {
          producerId: content.producerId,
          nextRecordId: last + 1,
          records: all.length,
          bytes: all.reduce((n, r) => n + r.size, 0),
        },
        'meta',
      ),
      ...content.records.map((r) => tx.objectStore('records').put(r)),
      ...content.batches.map((b) => tx.objectStore('batches').put(b)),
      ...content.sequences.map((s) => tx.objectStore('sequences').put(s)),
      ...content.topics.map((t) => tx.objectStore('topics').put(t)),
      tx.done,
    ])
  } finally {
    db.close()
  }
}

export function describeIdbOutboxCases(backend: string): void {
  const names: string[] = []
  let next = 0
  const fresh = (): string => {
    const name = `cases-${backend.replace(/\W/g, '')}-${Date.now().toString(36)}-${next++}`
    names.push(name)
    return name
  }

  afterAll(() => {
    for (const name of names) indexedDB.deleteDatabase(outboxDatabaseName(name))
  })

  describe(`outbox store > ${backend} > rows`, () => {
    it('keeps each append as one row, and records removed from inside rows exactly', async () => {
      const name = fresh()
      const store = new IdbOutboxStore(name)
      await store.open(() => 1)
      for (let i = 0; i < 4; i++) {
        await store.append(
          values('r', i * 100, (i + 1) * 100).map((v) => record(v, 50)),
          limits,
        )
      }
      expect((await queuedRows(name)).map((row) => [row.id, packedCount(row.packed)])).toEqual([
        [1, 100],
        [101, 100],
        [201, 100],
        [301, 100],
      ])
      // A seal that stops inside a row (by count, then by bytes) takes a prefix of it.
      const firstTake = await store.unsealed(150, Number.MAX_SAFE_INTEGER)
      expect(firstTake.map((r) => r.id)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1))
      await store.commit({ deleteRecordIds: firstTake.map((r) => r.id) })
      const byBytes = await store.unsealed(1_000, 50 * 30)
      expect(byBytes.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 151))
      await store.commit({ deleteRecordIds: byBytes.map((r) => r.id) })
      // Scattered ids: inside one row, and a run across a row's end into the next.
      const scattered = [190, 191, 250, ...Array.from({ length: 60 }, (_, i) => i + 280)]
      await store.commit({ deleteRecordIds: scattered })
      const gone = new Set([...firstTake, ...byBytes].map((r) => r.id).concat(scattered))
      const expected = Array.from({ length: 400 }, (_, i) => i + 1).filter((id) => !gone.has(id))
      store.close()

      const again = new IdbOutboxStore(name)
      await again.open(() => 2)
      const left = await again.unsealed(1_000, Number.MAX_SAFE_INTEGER)
      expect(left.map((r) => r.id)).toEqual(expected)
      expect(left.map(decoded)).toEqual(expected.map((id) => `r${id - 1}`))
      // Still few rows: removals rewrite the rows they cut into, they do not split records out.
      expect((await queuedRows(name)).length).toBeLessThanOrEqual(4)
      await again.commit({ deleteRecordIds: expected })
      expect(await queuedRows(name)).toEqual([])
      expect(await again.unsealed(10, 1e9)).toEqual([])
      again.close()
    })
  })

  describe(`outbox store > ${backend} > durability`, () => {
    it('makes enqueues, seals and epoch changes strict, and only the removal of delivered batches relaxed', async () => {
      const asked: Array<{ stores: string[]; durability: string | undefined }> = []
      const transaction = IDBDatabase.prototype.transaction
      IDBDatabase.prototype.transaction = function (this: IDBDatabase, stores, mode, options) {
        if (mode === 'readwrite')
          asked.push({ stores: typeof stores === 'string' ? [stores] : [...stores], durability: options?.durability })
        return transaction.call(this, stores, mode, options)
      }
      const store = new IdbOutboxStore(fresh())
      try {
        await store.open(() => 1)
        const [id] = await store.append([record('a')], limits)
        const sequence = { topic: 't', partition: 0, producerEpoch: 0, epochFrom: 0, next: 1 }
        const batch = { id: 1, topic: 't', partition: 0, producerEpoch: 0, baseSequence: 0, bytes: 25 }
        const [stored] = await store.unsealed(1, 1e9)
        await store.commit({
          deleteRecordIds: [id!],
          putBatches: [{ ...batch, records: [stored!] }],
          putSequences: [sequence],
          putTopics: [{ topic: 't', partitions: 1 }],
        })
        await store.commit({ putSequences: [{ ...sequence, producerEpoch: 1, epochFrom: 1 }] })
        await store.commit({ deleteBatchIds: [1], released: { records: 1, bytes: 25 } })
      } finally {
        IDBDatabase.prototype.transaction = transaction
        store.close()
      }
      expect(asked.map((a) => a.durability)).toEqual(['strict', 'strict', 'strict', 'strict', 'relaxed'])
      expect(asked[1]!.stores).toEqual(['meta', 'queued'])
    })
  })

  describe(`outbox store > ${backend} > schema version 1`, () => {
    it('moves a version-1 outbox into rows on open, keeping ids, meta, batches, sequences and topics', async () => {
      const name = fresh()
      const queued = values('q', 0, 2_500).map((v, i): StoredRecord => ({ ...record(v, 40), id: i + 11 }))
      const sealed = values('s', 0, 10).map((v, i): StoredRecord => ({ ...record(v, 40), id: i + 1, partition: 0 }))
      const batch: SealedBatch = {
        id: 1,
        topic: 't',
        partition: 0,
        producerEpoch: 0,
        baseSequence: 0,
        records: sealed,
        bytes: 400,
      }
      const sequence = { topic: 't', partition: 0, producerEpoch: 0, epochFrom: 0, next: 10 }
      await writeV1Outbox(name, {
        producerId: 77,
        records: queued,
        batches: [batch],
        sequences: [sequence],
        topics: [{ topic: 't', partitions: 1 }],
      })
      const store = new IdbOutboxStore(name)
      const snapshot = await store.open(() => 1)
      expect(snapshot.meta).toEqual({ producerId: 77, nextRecordId: 2_511, records: 2_510, bytes: 2_510 * 40 })
      expect(snapshot.sequences).toEqual([sequence])
      expect(snapshot.topics).toEqual([{ topic: 't', partitions: 1 }])
      expect(await store.batches(10)).toEqual([batch])
      const moved = await store.unsealed(10_000, Number.MAX_SAFE_INTEGER)
      expect(moved).toEqual(queued)
      expect((await queuedRows(name)).length).toBeLessThan(10)
      // Appends continue after the moved ids, as rows of their own.
      expect(await store.append([record('after')], limits)).toEqual([2_511])
      store.close()
    })

    it('drains an outbox written by version 1 exactly once and in order', async () => {
      const name = fresh()
      const leader = new FakeLeader()
      leader.createTopic('t', 1)
      // A batch sealed and sent by the old version whose acknowledgement was lost, then records
      // still unsealed: the leader has the batch already and must answer its resend as a duplicate.
      const sealed = values('v', 0, 5).map((v, i): StoredRecord => ({ ...record(v, 40), id: i + 1, partition: 0 }))
      const producerId = 1234
      await leader.produce(
        {
          topic: 't',
          partition: 0,
          timeoutMs: 1_000,
          records: encodeRecordBatchSync({
            records: sealed.map((r) => ({ key: r.key, value: r.value, headers: r.headers, timestamp: r.timestamp })),
            producerId,
            producerEpoch: 0,
            baseSequence: 0,
          }),
        },
        AbortSignal.timeout(1_000),
      )
      await writeV1Outbox(name, {
        producerId,
        records: values('v', 5, 1_005).map((v, i): StoredRecord => ({ ...record(v, 40), id: i + 6 })),
        batches: [{ id: 1, topic: 't', partition: 0, producerEpoch: 0, baseSequence: 0, records: sealed, bytes: 200 }],
        sequences: [{ topic: 't', partition: 0, producerEpoch: 0, epochFrom: 0, next: 5 }],
        topics: [{ topic: 't', partitions: 1 }],
      })
      const outbox = await OutboxProducer.open(leader, {
        store: new IdbOutboxStore(name),
        retry: { initialRetryTime: 5, maxRetryTime: 20 },
      })
      try {
        await outbox.flush({ timeout: 20_000 })
        expect(leader.log('t', 0).map((r) => r.value)).toEqual(values('v', 0, 1_005))
        expect(leader.duplicates).toBe(1)
        expect(await outbox.pending()).toBe(0)
      } finally {
        await outbox.close()
      }
    })
  })
}
