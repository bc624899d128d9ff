import type { IDBPTransaction, StoreNames } from 'idb'
import type { AbortOptions } from '../types.js'
import type { TributaryDb } from './connection.js'
import { type FailureContext, toStorageError } from './errors.js'
import type { TributarySchema } from './schema.js'

export type Store = StoreNames<TributarySchema>
export type Tx<S extends Store[], M extends IDBTransactionMode> = IDBPTransaction<TributarySchema, S, M>

export interface TxOptions extends AbortOptions, FailureContext {
  /**
   * `relaxed` commits once the browser has the data (it survives a tab or browser crash but
   * not a power loss); `strict` waits until it is on disk. Chromium's default is relaxed,
   * Firefox's and Safari's are not, so every transaction says which it wants.
   */
  durability?: 'strict' | 'relaxed'
}

/**
 * Runs `body` in one transaction and resolves once it has committed, so a caller never sees
 * success for work the database may still drop. All or nothing: if `body` throws, the signal
 * aborts, or the commit fails (quota), the transaction aborts and nothing of it is written.
 *
 * `body` must await only requests of `tx`: awaiting anything else lets the transaction
 * auto-commit half way (IndexedDB commits when a task ends with no request pending).
 */
export async function inTransaction<S extends Store[], M extends IDBTransactionMode, T>(
  db: TributaryDb,
  stores: S,
  mode: M,
  options: TxOptions,
  body: (tx: Tx<S, M>) => Promise<T>,
): Promise<T> {
  options.signal?.throwIfAborted()
  let tx: Tx<S, M>
  try {
    tx = db.transaction(stores, mode, { durability: options.durability ?? 'relaxed' })
  } catch (err) {
    throw toStorageError(err, options)
  }
  // Requests of an aborted transaction reject too; their callers see the abort's cause below.
  tx.done.catch(() => {})
  const abort = (): void => {
    try {
      tx.abort()
    } catch {
      // Already committed or aborted.
    }
  }
  options.signal?.addEventListener('abort', abort, { once: true })
  try {
    const result = await body(tx)
    await tx.done
    return result
  } catch (err) {
    abort()
    if (options.signal?.aborted) throw options.signal.reason
    // A failed commit (quota) reports its reason on the transaction; requests only say AbortError.
    throw toStorageError(tx.error ?? err, options)
  } finally {
    options.signal?.removeEventListener('abort', abort)
  }
}
