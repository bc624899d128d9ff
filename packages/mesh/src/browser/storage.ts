/**
 * What a browser peer shows and controls of its storage: persistence (so the browser does not
 * evict the replicas under storage pressure), the origin's usage and quota as the browser
 * reports them, the bytes the partition logs hold, and the byte budget retention keeps them under.
 */
import type { IdbLogFactory, StorageErrorEvent } from './idb-log-factory.js'

export interface StorageStatus {
  /** Whether the browser granted persistent storage (`navigator.storage.persisted()`). */
  persisted: boolean
  /** The origin's usage and quota (`navigator.storage.estimate()`); undefined where unsupported. */
  usageBytes: number | undefined
  quotaBytes: number | undefined
  /** Bytes held by this peer's open partition logs. */
  logBytes: number
  /** The budget retention keeps the logs under; undefined when none is set. */
  budgetBytes: number | undefined
}

type StorageManagerLike = Pick<StorageManager, 'persist' | 'persisted' | 'estimate'>

function manager(): StorageManagerLike | undefined {
  return (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage
}

/** Asks the browser to keep this origin's data under storage pressure; false where refused or unsupported. */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = manager()
  if (storage === undefined) return false
  try {
    return (await storage.persisted()) || (await storage.persist())
  } catch {
    return false
  }
}

export class BrowserStorage {
  private lastError_: StorageErrorEvent | undefined

  constructor(private readonly logs: IdbLogFactory) {
    logs.onStorageError((event) => {
      this.lastError_ = event
    })
  }

  /** The last write refused for quota (a `StorageQuotaError`; nothing of it was written), if any. */
  get lastError(): StorageErrorEvent | undefined {
    return this.lastError_
  }

  /** Told of every write refused for quota, with the partition it was for. */
  onError(listener: (event: StorageErrorEvent) => void): () => void {
    return this.logs.onStorageError(listener)
  }

  /** Keeps the partition logs under `bytes` in total (undefined: no budget); enforced by retention. */
  setBudget(bytes: number | undefined): void {
    this.logs.setBudget(bytes)
  }

  async status(): Promise<StorageStatus> {
    const storage = manager()
    let persisted = false
    let usageBytes: number | undefined
    let quotaBytes: number | undefined
    if (storage !== undefined) {
      persisted = await storage.persisted().catch(() => false)
      const estimate = await storage.estimate().catch(() => undefined)
      usageBytes = estimate?.usage
      quotaBytes = estimate?.quota
    }
    return { persisted, usageBytes, quotaBytes, logBytes: this.logs.usedBytes(), budgetBytes: this.logs.budgetBytes }
  }
}
