/**
 * Partition logs in IndexedDB, for browser peers. Many partitions share one database; each
 * stored record batch is one row keyed `[partitionKey, baseOffset]`, and every change is one
 * transaction, so a full quota or a closed tab never leaves half a write.
 *
 * ```ts
 * import { openIdbLog } from '@tributary/log/idb'
 *
 * const log = await openIdbLog({ name: 'orders-0', topicConfig: { 'retention.bytes': 64 * 1024 * 1024 } })
 * const { firstOffset } = await log.appendAsLeader(batchBytes, leaderEpoch)
 * await log.close()
 * ```
 *
 * A full browser quota surfaces as `StorageQuotaError` (nothing written, the log stays usable);
 * another tab upgrading or deleting the database as `IdbConnectionClosedError`.
 */
import { type Log, type OpenLogOptions, openLog } from '../log.js'
import { IdbStore, type IdbStoreOptions } from './idb-store.js'

export { deleteIdbDatabase } from './connection.js'
export { IdbConnectionClosedError } from './errors.js'
export { IdbStore, type IdbStoreOptions } from './idb-store.js'
export { DEFAULT_DB_NAME } from './schema.js'

export interface OpenIdbLogOptions extends Omit<OpenLogOptions, 'store'> {
  /** Database shared by the partitions of this origin. Default `tributary`. */
  dbName?: string
  /** Key of this partition's rows in the database. Default: `name`. */
  partitionKey?: string
  /** See `IdbStoreOptions.appendDurability`. Default `relaxed`. */
  appendDurability?: IdbStoreOptions['appendDurability']
}

export function openIdbLog(options: OpenIdbLogOptions): Promise<Log> {
  const { dbName, partitionKey, appendDurability, ...rest } = options
  const store = new IdbStore({
    partitionKey: partitionKey ?? options.name,
    dbName,
    logger: options.logger,
    appendDurability,
  })
  return openLog({ ...rest, store })
}
