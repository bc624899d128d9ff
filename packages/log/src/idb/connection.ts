import { KafkaStorageError } from '@tributary/wire'
import { deleteDB, type IDBPDatabase, openDB } from 'idb'
import type { Logger } from '../logger.js'
import type { AbortOptions } from '../types.js'
import { IdbConnectionClosedError, toStorageError } from './errors.js'
import { BATCHES, DB_VERSION, EXTENTS, META, SEGMENTS, type TributarySchema } from './schema.js'

export type TributaryDb = IDBPDatabase<TributarySchema>

export interface ConnectOptions extends AbortOptions {
  logger: Logger
  /** How long to wait for other tabs to let go of an older version of the database. */
  blockedTimeoutMs: number
  /** Told once when the connection is closed from outside; the store refuses work from then on. */
  onLost(error: IdbConnectionClosedError): void
}

/**
 * Opens (creating or upgrading) the shared database. The connection closes itself when
 * another context asks for a new version or a delete (`versionchange`), so that request is
 * never stuck behind us; the store then fails its calls with `IdbConnectionClosedError`
 * until it is reopened.
 */
export async function connect(dbName: string, options: ConnectOptions): Promise<TributaryDb> {
  options.signal?.throwIfAborted()
  let db: TributaryDb | undefined
  let blockedTimer: ReturnType<typeof setTimeout> | undefined
  let giveUp: ((err: unknown) => void) | undefined
  const gaveUp = new Promise<never>((_, reject) => {
    giveUp = reject
  })
  const onAbort = (): void => giveUp?.(options.signal?.reason)
  options.signal?.addEventListener('abort', onAbort, { once: true })
  const opening = openDB<TributarySchema>(dbName, DB_VERSION, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        database.createObjectStore(BATCHES, { keyPath: ['p', 'b'] })
        database.createObjectStore(EXTENTS, { keyPath: ['p', 'b'] })
        database.createObjectStore(SEGMENTS, { keyPath: ['p', 'baseOffset'] })
        database.createObjectStore(META, { keyPath: ['p', 'k'] })
      }
    },
    blocked(currentVersion) {
      // Another tab still runs an older version of the app with the database open.
      options.logger.warn({ dbName, currentVersion, wanted: DB_VERSION }, 'IndexedDB upgrade blocked by another tab')
      blockedTimer ??= setTimeout(() => {
        giveUp?.(
          new KafkaStorageError(
            `IndexedDB '${dbName}' cannot be upgraded to version ${DB_VERSION}: another tab keeps version ${currentVersion} open. Close or reload the other tabs of this site.`,
          ),
        )
      }, options.blockedTimeoutMs)
    },
    blocking(currentVersion, blockedVersion) {
      db?.close()
      options.onLost(
        new IdbConnectionClosedError(
          blockedVersion === null
            ? `IndexedDB '${dbName}' is being deleted by another tab or by this one; reopen the log to continue`
            : `IndexedDB '${dbName}' is being upgraded from version ${currentVersion} to ${blockedVersion} by another tab; reload this one`,
        ),
      )
    },
    terminated() {
      options.onLost(
        new IdbConnectionClosedError(`the browser closed IndexedDB '${dbName}' (storage cleared or failed)`),
      )
    },
  })
  try {
    db = await Promise.race([opening, gaveUp])
    return db
  } catch (err) {
    // The open request cannot be cancelled: if it completes after we gave up, close it.
    opening.then((late) => late.close()).catch(() => {})
    if (options.signal?.aborted) throw options.signal.reason
    if (err instanceof Error && err.name === 'VersionError') {
      throw new KafkaStorageError(
        `IndexedDB '${dbName}' has a newer layout than this code (version ${DB_VERSION}); reload the page to get the new version`,
        { cause: err },
      )
    }
    throw toStorageError(err, { what: `opening IndexedDB '${dbName}'` })
  } finally {
    clearTimeout(blockedTimer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * Deletes a whole database (every partition in it). Open logs on it close their connection
 * when asked (see `connect`), so this waits only for connections held by other code.
 */
export async function deleteIdbDatabase(dbName: string): Promise<void> {
  try {
    await deleteDB(dbName)
  } catch (err) {
    throw toStorageError(err, { what: `deleting IndexedDB '${dbName}'` })
  }
}
