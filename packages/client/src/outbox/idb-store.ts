/**
 * The outbox in IndexedDB (browsers): database `tributary-outbox:<name>` with one object store
 * per row kind (see store.ts; unsealed records are kept one row per append, see idb-rows.ts, and
 * the schema's versions in idb-schema.ts). Each step is one readwrite transaction, so a crash or
 * a reload keeps all of it or none; the size bound is checked inside the append transaction. A
 * full quota aborts the transaction (nothing half-written) and surfaces as StorageQuotaError.
 *
 * Durability: browsers complete a transaction before it reaches the disk unless it asks for
 * `strict` (Chromium's default is `relaxed` since 121): the OS flushes it a few seconds later,
 * so a power loss or OS crash could drop it. Whatever must outlive that is strict — an enqueue
 * (the app was told its records are stored), the producer id, and every change that fixes what
 * a request will carry (a seal: batches and sequences; a new epoch). The removal of an
 * acknowledged batch is relaxed: losing it means a resend, which the leader answers as a duplicate.
 */
import { KafkaStorageError, StorageQuotaError, TributaryError } from '@tributary/wire'
import { type IDBPDatabase, openDB } from 'idb'
import { appendedRow, batchOfRow, batchRow, idRuns, type QueuedRow, rowRecords, rowWithout } from './idb-rows.js'
import { DB_VERSION, META_KEY, type OutboxSchema, upgradeOutbox } from './idb-schema.js'
import { checkRoom } from './memory-store.js'
import type {
  OutboxChange,
  OutboxLimits,
  OutboxMeta,
  OutboxSnapshot,
  OutboxStore,
  SealedBatch,
  StoredRecord,
} from './store.js'

/** Rows per read request at most (each holds one append's records). */
const READ_ROWS = 256

type OutboxDb = IDBPDatabase<OutboxSchema>

/** A change that only removes acknowledged batches (the one kind a power loss may undo: see above). */
function onlyRemovesDelivered(change: OutboxChange): boolean {
  return (
    change.deleteRecordIds === undefined &&
    change.putBatches === undefined &&
    change.putSequences === undefined &&
    change.putTopics === undefined
  )
}

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
      const tx = this.db.transaction(['meta', 'sequences', 'topics'], 'readwrite', { durability: 'strict' })
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

  private async connect(dbName: string): Promise<OutboxDb> {
    let upgradeFailure: unknown
    try {
      return await openDB<OutboxSchema>(dbName, DB_VERSION, {
        upgrade: (database, oldVersion, _newVersion, transaction) => {
          // The upgrade aborts itself on failure (the open then rejects); its cause is kept for the error.
          upgradeOutbox(database, oldVersion, transaction).catch((err: unknown) => {
            upgradeFailure = err
          })
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
    } catch (err) {
      throw upgradeFailure ?? err
    }
  }

  async append(
    records: ReadonlyArray<Omit<StoredRecord, 'id'>>,
    limits: OutboxLimits,
    onIds?: (ids: number[]) => void,
  ): Promise<number[]> {
    const db = this.connection()
    const bytes = records.reduce((n, r) => n + r.size, 0)
    const tx = db.transaction(['meta', 'queued'], 'readwrite', { durability: 'strict' })
    // A failed request aborts the transaction; its `done` then rejects too. Handled below.
    tx.done.catch(() => {})
    try {
      const meta = await tx.objectStore('meta').get(META_KEY)
      if (meta === undefined) throw new KafkaStorageError(`outbox '${this.name}' lost its meta row`)
      checkRoom(meta, records.length, bytes, limits)
      const ids = records.map((_, i) => meta.nextRecordId + i)
      onIds?.(ids)
      // One row for the whole append: one value to write, read and remove instead of one per record.
      settled(tx.objectStore('queued').put(appendedRow(meta.nextRecordId, records)))
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
      // Rows are only appended at higher ids or shrunk by this outbox's one deliverer, so reading
      // chunk after chunk sees them in order. A row holds at least one record: never more rows than records wanted.
      while (out.length < maxRecords) {
        const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true)
        const want = Math.min(READ_ROWS, maxRecords - out.length)
        const rows: QueuedRow[] = await db.getAll('queued', range, want)
        for (const row of rows) {
          for (const record of rowRecords(row)) {
            if (out.length >= maxRecords || (out.length > 0 && bytes + record.size > maxBytes)) return out
            out.push(record)
            bytes += record.size
          }
        }
        if (rows.length < want) break
        after = rows.at(-1)!.id
      }
      return out
    } catch (err) {
      throw storageError(err, `reading outbox '${this.name}'`)
    }
  }

  async batches(limit: number): Promise<SealedBatch[]> {
    try {
      return (await this.connection().getAll('batches', undefined, limit)).map(batchOfRow)
    } catch (err) {
      throw storageError(err, `reading outbox '${this.name}'`)
    }
  }

  async commit(change: OutboxChange): Promise<void> {
    const db = this.connection()
    const tx = db.transaction(['meta', 'queued', 'batches', 'sequences', 'topics'], 'readwrite', {
      durability: onlyRemovesDelivered(change) ? 'relaxed' : 'strict',
    })
    tx.done.catch(() => {})
    try {
      // Sealed records are mostly a run of consecutive ids: per run, one ranged delete of the
      // rows inside it, and the (at most two) rows it cuts into rewritten with what they keep.
      const queued = tx.objectStore('queued')
      for (const [first, last] of idRuns(change.deleteRecordIds ?? [])) {
        // The rows holding `first` and `last`, if any: the last row starting at or before each.
        // Read after the previous run's writes (a transaction reads its own), so rows cut twice stay right.
        const [atFirst, atLast] = await Promise.all([
          queued.openCursor(IDBKeyRange.upperBound(first), 'prev'),
          queued.openCursor(IDBKeyRange.upperBound(last), 'prev'),
        ])
        const cut = new Map<number, QueuedRow>()
        for (const cursor of [atFirst, atLast]) if (cursor !== null) cut.set(cursor.value.id, cursor.value)
        settled(queued.delete(IDBKeyRange.bound(first, last)))
        for (const row of cut.values()) {
          const left = rowWithout(row, first, last)
          if (left === row) continue
          if (row.id < first) settled(queued.delete(row.id))
          if (left !== undefined) settled(queued.put(left))
        }
      }
      for (const id of change.deleteBatchIds ?? []) settled(tx.objectStore('batches').delete(id))
      for (const batch of change.putBatches ?? []) settled(tx.objectStore('batches').put(batchRow(batch)))
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
