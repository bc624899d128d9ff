/**
 * In-memory partition logs: the full log contract, nothing on disk.
 *
 * ```ts
 * import { openMemoryLog } from '@tributary/log/memory'
 * const log = await openMemoryLog({ name: 'orders-0' })
 * ```
 */
import { type Log, type OpenLogOptions, openLog } from '../log.js'
import { emptyPartitionData, type MemoryPartitionData, MemoryStore } from './memory-store.js'

export { emptyPartitionData, type MemoryPartitionData, MemoryStore } from './memory-store.js'

export interface OpenMemoryLogOptions extends Omit<OpenLogOptions, 'store'> {
  /** Pass the same object again to reopen the log with its data (a simulated restart). */
  data?: MemoryPartitionData
}

export function openMemoryLog(options: OpenMemoryLogOptions): Promise<Log> {
  return openLog({ ...options, store: new MemoryStore(options.data ?? emptyPartitionData()) })
}
