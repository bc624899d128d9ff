/**
 * The outbox in IndexedDB (browsers): database `tributary-outbox:<name>` with one object store
 * per row kind (see store.ts). Each step is one readwrite transaction, so a crash or a reload
 * keeps all of it or none; the size bound is checked inside the append transaction. A full
 * quota aborts the transaction (nothing half-written) and surfaces as StorageQuotaError.
 */
import { KafkaStorageError, StorageQuotaError, TributaryError } from '@tributary/wire'
import { type DBSchema, type IDBPDatabase, openDB } from 'idb'
import { checkRoom } from './memory-store.js'
import type {
  OutboxChange,
  OutboxLimits,
  OutboxMeta,
  OutboxSnapshot,
  OutboxStore,
  PartitionSequence,
  SealedBatch,
  StoredRecord,
  TopicPartitions,
} from './store.js'

const DB_VERSION = 1
const META_KEY = 'meta'
/** Records per read request. */
const READ_CHUNK = 1_000

interface OutboxSchema extends DBSchema {
  meta: { key: string; value: OutboxMeta }
  records: { key: number; value: StoredRecord }
  batches: { key: number; value: SealedBatch }
  sequences: { key: [string, number]; value: PartitionSequence }
  topics: { key: string; value: TopicPartitions }
}

type OutboxDb = IDBPDatabase<OutboxSchema>

/** The database name of the outbox called `name`. */
export function outboxDatabaseName(name: string): string {
  return `tributary-outbox:${name}`
}

export class IdbOutboxStore implements OutboxStore {
  private db: OutboxDb | undefined
  private lost: TributaryError | undefined

  constructor(readonly name: string) {}

  async open(newProducerId: () => number, signal?: AbortSignal): Promise<OutboxSnapshot> {
    signal?.throwIfAborted()
    const dbName = outboxDatabaseName(this.name)
    try {
      this.db ??= await untilAborted(this.connect(dbName), signal)
      const tx = this.db.transaction(['meta', 'sequences', 'topics'], 'readwrite')
      let meta = await tx.objectStore('meta').get(META_KEY)
      if (meta === undefined) {
        meta = { producerId: newProducerId(), nextRecordId: 1, records: 0, bytes: 0 }
        settled(tx.objectStore('meta').put(meta, META_KEY))
      }
      const [sequences, topics] = await Promise.all([
        tx.objectStore('sequences').getAll(),
        tx.objectStore('topics').getAll(),
      ])
      await tx.done
      return { meta, sequences, topics }
    } catch (err) {
      throw storageError(err, `opening outbox '${this.name}'`)
    }
  }

  private connect(dbName: string): Promise<OutboxDb> {
    const opening = openDB<OutboxSchema>(dbName, DB_VERSION, {
      upgrade(database) {
        database.createObjectStore('meta')
        database.createObjectStore('records', { keyPath: 'id' })
        database.createObjectStore('batches', { keyPath: 'id' })
        database.createObjectStore('sequences', { keyPath: ['topic', 'partition'] })
        database.createObjectStore('topics', { keyPath: 'topic' })
      },
      blocking: () => {
        // Another tab deletes or upgrades the database: let it, and refuse work from now on.
        this.db?.close()
        this.lost = new KafkaStorageError(`IndexedDB '${dbName}' was closed for another tab's upgrade or delete`)
      },
      terminated: () => {
        this.lost = new KafkaStorageError(`the browser closed IndexedDB '${dbName}' (storage cleared or failed)`)
      },
    })
    return opening
  }

  async append(
    records: ReadonlyArray<Omit<StoredRecord, 'id'>>,
    limits: OutboxLimits,
    onIds?: (ids: number[]) => void,
  ): Promise<number[]> {
    const db = this.connection()
    const bytes = records.reduce((n, r) => n + r.size, 0)
    const tx = db.transaction(['meta', 'records'], 'readwrite')
    // A failed request aborts the transaction; its `done` then rejects too. Handled below.
    tx.done.catch(() => {})
    try {
      const meta = await tx.objectStore('meta').get(META_KEY)
      if (meta === undefined) throw new KafkaStorageError(`outbox '${this.name}' lost its meta row`)
      checkRoom(meta, records.length, bytes, limits)
      const ids = records.map((_, i) => meta.nextRecordId + i)
      onIds?.(ids)
      const store = tx.objectStore('records')
      records.forEach((record, i) => {
        settled(store.put({ ...record, id: ids[i]! }))
      })
      meta.nextRecordId += records.length
      meta.records += records.length
      meta.bytes += bytes
      settled(tx.objectStore('meta').put(meta, META_KEY))
      await tx.done
      return ids
    } catch (err) {
      abortQuietly(tx)
      throw storageError(err, `queueing ${records.length} records (${bytes} bytes) in outbox '${this.name}'`)
    }
  }

  async unsealed(maxRecords: number, maxBytes: number): Promise<StoredRecord[]> {
    const out: StoredRecord[] = []
    let bytes = 0
    let after: number | undefined
    try {
      const db = this.connection()
      // In chunks with getAll, one request each: a cursor costs a request (and a task) per record.
      // Records are only appended at higher ids or removed by this outbox's one deliverer, so
      // reading chunk after chunk sees them in order.
      while (out.length < maxRecords) {
        const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true)
        const chunk = await db.getAll('records', range, Math.min(READ_CHUNK, maxRecords - out.length))
        for (const record of chunk) {
          if (out.length > 0 && bytes + record.size > maxBytes) return out
          out.push(record)
          bytes += record.size
        }
        if (chunk.length < READ_CHUNK) break
        after = chunk.at(-1)!.id
      }
      return out
    } catch (err) {
      throw storageError(err, `reading outbox '${this.name}'`)
    }
  }

  async batches(limit: number): Promise<SealedBatch[]> {
    try {
      return await this.connection().getAll('batches', undefined, limit)
    } catch (err) {
      throw storageError(err, `reading outbox '${this.name}'`)
    }
  }

  async commit(change: OutboxChange): Promise<void> {
    const db = this.connection()
    const tx = db.transaction(['meta', 'records', 'batches', 'sequences', 'topics'], 'readwrite')
    tx.done.catch(() => {})
    try {
      // Sealed records are mostly a run of consecutive ids: one ranged delete per run.
      for (const [first, last] of runs(change.deleteRecordIds ?? [])) {
        settled(tx.objectStore('records').delete(first === last ? first : IDBKeyRange.bound(first, last)))
      }
      for (const id of change.deleteBatchIds ?? []) settled(tx.objectStore('batches').delete(id))
      for (const batch of change.putBatches ?? []) settled(tx.objectStore('batches').put(batch))
      for (const s of change.putSequences ?? []) settled(tx.objectStore('sequences').put(s))
      for (const t of change.putTopics ?? []) settled(tx.objectStore('topics').put(t))
      if (change.released !== undefined) {
        const meta = await tx.objectStore('meta').get(META_KEY)
        if (meta === undefined) throw new KafkaStorageError(`outbox '${this.name}' lost its meta row`)
        meta.records = Math.max(0, meta.records - change.released.records)
        meta.bytes = Math.max(0, meta.bytes - change.released.bytes)
        settled(tx.objectStore('meta').put(meta, META_KEY))
      }
      await tx.done
    } catch (err) {
      abortQuietly(tx)
      throw storageError(err, `updating outbox '${this.name}'`)
    }
  }

  async meta(): Promise<OutboxMeta> {
    const meta = await this.connection().get('meta', META_KEY)
    if (meta === undefined) throw new KafkaStorageError(`outbox '${this.name}' lost its meta row`)
    return meta
  }

  close(): void {
    this.db?.close()
    this.db = undefined
  }

  private connection(): OutboxDb {
    if (this.lost !== undefined) throw this.lost
    if (this.db === undefined) throw new KafkaStorageError(`outbox '${this.name}' is not open`)
    return this.db
  }
}

/**
 * Waits for an open that cannot be cancelled (another tab may block it), or rejects when the
 * signal aborts — closing the database if it opens after all.
 */
async function untilAborted(opening: Promise<OutboxDb>, signal: AbortSignal | undefined): Promise<OutboxDb> {
  if (signal === undefined) return opening
  let onAbort: () => void = () => {}
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([opening, aborted])
  } catch (err) {
    opening.then((late) => late.close()).catch(() => {})
    throw err
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** Ids as runs of consecutive numbers, [first, last] each, ascending. */
function runs(ids: readonly number[]): Array<[number, number]> {
  const sorted = [...ids].sort((a, b) => a - b)
  const out: Array<[number, number]> = []
  for (const id of sorted) {
    const last = out.at(-1)
    if (last !== undefined && id <= last[1] + 1) last[1] = Math.max(last[1], id)
    else out.push([id, id])
  }
  return out
}

function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort()
  } catch {
    // Already finished or aborted: nothing of it was committed by us after the failure.
  }
}

/** IndexedDB's failures as Tributary errors; a full quota is StorageQuotaError (not retriable as is). */
function storageError(err: unknown, what: string): TributaryError {
  if (err instanceof TributaryError) return err
  const name = (err as { name?: unknown } | null)?.name
  const detail = (err as { message?: unknown } | null)?.message
  if (name === 'QuotaExceededError') {
    return new StorageQuotaError(
      `${what}: the browser's storage quota is exhausted; nothing was written. Free space, or deliver the outbox first.`,
      { cause: err, retriable: false },
    )
  }
  return new KafkaStorageError(`${what}: IndexedDB failed (${String(name ?? 'error')}: ${String(detail ?? err)})`, {
    cause: err,
  })
}

/**
 * A request inside a transaction: its failure aborts the transaction, whose `done` rejects with it
 * and is what the caller awaits; the request's own promise is only kept from rejecting unhandled.
 */
function settled(request: Promise<unknown>): void {
  request.catch(() => {})
}
