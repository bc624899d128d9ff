/**
 * Partition logs in segment files (Node): Kafka's on-disk layout, recovery and retention.
 *
 * ```ts
 * import { openFsLog } from '@tributary/log/fs'
 * const log = await openFsLog({ dir: 'data/orders-0', name: 'orders-0', config: { segmentBytes: 256 << 20 } })
 * ```
 */
import { resolveLogConfig } from '../config.js'
import { Log, type OpenLogOptions } from '../log.js'
import { silentLogger } from '../logger.js'
import { FsStore } from './fs-store.js'

export { FsStore, type FsStoreOptions } from './fs-store.js'

export interface OpenFsLogOptions extends Omit<OpenLogOptions, 'store'> {
  /** The partition's directory (created if missing). */
  dir: string
  /** Closed segments whose files may be open at once. Default 32. */
  maxOpenSegments?: number
}

export async function openFsLog(options: OpenFsLogOptions): Promise<Log> {
  const config = resolveLogConfig(options.config, options.topicConfig)
  const store = new FsStore({
    dir: options.dir,
    name: options.name,
    logger: options.logger ?? silentLogger,
    indexIntervalBytes: config.indexIntervalBytes,
    ...(options.maxOpenSegments === undefined ? {} : { maxOpenSegments: options.maxOpenSegments }),
  })
  const log = new Log({ ...options, config, topicConfig: {}, store }, config)
  await log.open(options)
  return log
}
