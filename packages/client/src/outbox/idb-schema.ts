/**
 * The IndexedDB outbox's schema and its upgrades. Version 2 keeps unsealed records one row per
 * append (`queued`) and every row's records packed (see idb-rows.ts), where version 1 kept one
 * row per record (`records`) and batches' records as objects. Opening a version-1 outbox moves
 * its records into `queued` and repacks its batches inside the upgrade transaction — atomic like
 * every step of the store: a crash or a failure mid-upgrade leaves the database at version 1,
 * untouched, and the next open tries again. Sequences, topics and meta rows are the same in both.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb'
import { type BatchRow, batchRow, type QueuedRow, rowsOf } from './idb-rows.js'
import type { OutboxMeta, PartitionSequence, SealedBatch, StoredRecord, TopicPartitions } from './store.js'

export const DB_VERSION = 2
export const META_KEY = 'meta'
/** Records per row when version-1 rows are regrouped, and per read while moving them. */
const MIGRATE_CHUNK = 1_000

export interface OutboxSchema extends DBSchema {
  meta: { key: string; value: OutboxMeta }
  queued: { key: number; value: QueuedRow }
  batches: { key: number; value: BatchRow }
  sequences: { key: [string, number]; value: PartitionSequence }
  topics: { key: string; value: TopicPartitions }
}

/** Version 1's stores: `queued` was `records`, one row per record keyed by its id; batches held record objects. */
interface SchemaV1 extends Omit<OutboxSchema, 'queued' | 'batches'> {
  records: { key: number; value: StoredRecord }
  batches: { key: number; value: SealedBatch }
}

type Upgrade = IDBPTransaction<OutboxSchema, ArrayLike<StoreNames<OutboxSchema>>, 'versionchange'>

/**
 * Creates or upgrades the database (openDB's `upgrade`). The returned promise settles when the
 * upgrade's requests are done; on a failure the transaction is aborted, so the open fails and
 * nothing changed.
 */
export async function upgradeOutbox(db: IDBPDatabase<OutboxSchema>, oldVersion: number, tx: Upgrade): Promise<void> {
  try {
    if (oldVersion < 1) {
      db.createObjectStore('meta')
      db.createObjectStore('batches', { keyPath: 'id' })
      db.createObjectStore('sequences', { keyPath: ['topic', 'partition'] })
      db.createObjectStore('topics', { keyPath: 'topic' })
    }
    if (oldVersion < 2) {
      db.createObjectStore('queued', { keyPath: 'id' })
      if (oldVersion === 1) await moveRecordsToRows(db as unknown as IDBPDatabase<SchemaV1>, tx)
    }
  } catch (err) {
    try {
      tx.abort()
    } catch {
      // Already aborted by the failed request.
    }
    throw err
  }
}

/** Version 1 → 2: the `records` rows regrouped into `queued` rows of consecutive ids (then `records` dropped), batches repacked. */
async function moveRecordsToRows(db: IDBPDatabase<SchemaV1>, upgrade: Upgrade): Promise<void> {
  const tx = upgrade as unknown as IDBPTransaction<SchemaV1, ArrayLike<StoreNames<SchemaV1>>, 'versionchange'>
  const from = tx.objectStore('records')
  const to = upgrade.objectStore('queued')
  let after: number | undefined
  // Bounded by the old store's rows: every pass reads past at least one, or stops.
  for (;;) {
    const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true)
    const chunk = await from.getAll(range, MIGRATE_CHUNK)
    // One chunk's rows end where the chunk does; the next chunk's first row starts a new one
    // (rows need not be as long as they could be).
    await Promise.all(rowsOf(chunk, MIGRATE_CHUNK).map((row) => to.put(row)))
    if (chunk.length < MIGRATE_CHUNK) break
    after = chunk.at(-1)!.id
  }
  db.deleteObjectStore('records')
  // Batches are few (at most one per batch size of records), so all at once.
  const batches = tx.objectStore('batches')
  const old = await batches.getAll()
  await Promise.all(old.map((batch) => upgrade.objectStore('batches').put(batchRow(batch))))
}
