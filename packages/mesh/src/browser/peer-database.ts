/**
 * A browser peer's own IndexedDB database (apart from the partition logs' one): what a Node peer
 * keeps as small files in its data directory. Stores:
 * - `replicas`, keyed `<topic>\0<partition>`: the topic id each stored replica was created for;
 * - `quorum`, same keys: each replica's persisted Raft state (epoch, vote, voter history);
 * - `kv`: the identity key, the metadata snapshot, the observed partitions.
 * Every write is one transaction committed with strict durability, as the file versions fsync.
 */
import { KafkaStorageError, StorageQuotaError, TributaryError } from '@tributary/wire'
import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from 'idb'

const VERSION = 1
export const REPLICAS = 'replicas'
export const QUORUM = 'quorum'
export const KV = 'kv'

export interface ReplicaRow {
  topic: string
  partition: number
  topicId: string
}

interface PeerSchema extends DBSchema {
  replicas: { key: string; value: ReplicaRow }
  quorum: { key: string; value: unknown }
  kv: { key: string; value: Uint8Array | string }
}

export function replicaKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`
}

/** How long opening waits for another tab that holds an older version of the database. */
const BLOCKED_TIMEOUT_MS = 10_000

export class PeerDatabase {
  private constructor(
    readonly name: string,
    private readonly db: IDBPDatabase<PeerSchema>,
  ) {}

  static async open(name: string): Promise<PeerDatabase> {
    let blockedTimer: ReturnType<typeof setTimeout> | undefined
    let giveUp: (err: Error) => void = () => {}
    const blocked = new Promise<never>((_, reject) => {
      giveUp = reject
    })
    const opening = openDB<PeerSchema>(name, VERSION, {
      upgrade(db) {
        db.createObjectStore(REPLICAS)
        db.createObjectStore(QUORUM)
        db.createObjectStore(KV)
      },
      blocked() {
        blockedTimer ??= setTimeout(
          () =>
            giveUp(
              new KafkaStorageError(`IndexedDB '${name}' is held open at an older version by another tab; reload it`),
            ),
          BLOCKED_TIMEOUT_MS,
        )
      },
    })
    try {
      const db = await Promise.race([opening, blocked])
      // Another tab deleting or upgrading this database: let it, this peer's writes then fail typed.
      db.addEventListener('versionchange', () => db.close())
      return new PeerDatabase(name, db)
    } catch (err) {
      opening.then((late) => late.close()).catch(() => {})
      throw storageError(err, `opening IndexedDB '${name}'`)
    } finally {
      clearTimeout(blockedTimer)
    }
  }

  async get<S extends typeof REPLICAS | typeof QUORUM | typeof KV>(
    store: S,
    key: string,
  ): Promise<PeerSchema[S]['value'] | undefined> {
    try {
      return await this.db.get(store, key)
    } catch (err) {
      throw storageError(err, `reading ${store}/${key} of IndexedDB '${this.name}'`)
    }
  }

  async put<S extends typeof REPLICAS | typeof QUORUM | typeof KV>(
    store: S,
    key: string,
    value: PeerSchema[S]['value'],
  ): Promise<void> {
    try {
      const tx = this.db.transaction(store, 'readwrite', { durability: 'strict' })
      await Promise.all([tx.objectStore(store).put(value, key), tx.done])
    } catch (err) {
      throw storageError(err, `writing ${store}/${key} of IndexedDB '${this.name}'`)
    }
  }

  /** Deletes a replica's catalog row and Raft state in one transaction. */
  async deleteReplica(key: string): Promise<void> {
    try {
      const tx = this.db.transaction([REPLICAS, QUORUM], 'readwrite', { durability: 'strict' })
      await Promise.all([tx.objectStore(REPLICAS).delete(key), tx.objectStore(QUORUM).delete(key), tx.done])
    } catch (err) {
      throw storageError(err, `deleting replica ${key} of IndexedDB '${this.name}'`)
    }
  }

  async replicas(): Promise<ReplicaRow[]> {
    try {
      return await this.db.getAll(REPLICAS)
    } catch (err) {
      throw storageError(err, `listing the replicas in IndexedDB '${this.name}'`)
    }
  }

  close(): void {
    this.db.close()
  }

  /** Deletes a peer's database (its identity, catalog and Raft state). */
  static async delete(name: string): Promise<void> {
    try {
      await deleteDB(name)
    } catch (err) {
      throw storageError(err, `deleting IndexedDB '${name}'`)
    }
  }
}

/** IndexedDB's exceptions as Tributary errors: a full quota is `StorageQuotaError`, nothing written. */
export function storageError(err: unknown, what: string): TributaryError {
  if (err instanceof TributaryError) return err
  const name = (err as { name?: unknown } | undefined)?.name
  if (name === 'QuotaExceededError') {
    return new StorageQuotaError(`${what}: the browser's storage quota is exhausted; nothing was written`, {
      cause: err,
    })
  }
  return new KafkaStorageError(`${what}: IndexedDB failed (${String(name ?? err)})`, { cause: err })
}
