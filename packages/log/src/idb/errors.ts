import { KafkaStorageError, StorageQuotaError, TributaryError } from '@tributary/wire'

/**
 * The database connection went away under an open log: another tab is upgrading or deleting
 * the database (`versionchange`), or the browser closed it (storage cleared, disk error).
 * Retriable: reopening the log opens a new connection.
 */
export class IdbConnectionClosedError extends KafkaStorageError {
  static override name = 'IdbConnectionClosedError'
}

/** Where a failure happened, for the message: `"orders-0: append of 3 batches"`. */
export interface FailureContext {
  what: string
  /** Bytes the failed operation was writing, for quota messages. */
  writingBytes?: number
}

/**
 * Maps whatever IndexedDB threw (a DOMException from a request, a transaction's abort
 * reason, an `InvalidStateError` from a closed connection) to a Tributary error. Our own
 * errors pass through unchanged.
 */
export function toStorageError(err: unknown, ctx: FailureContext): TributaryError {
  if (err instanceof TributaryError) return err
  const name = err instanceof Error || isDomException(err) ? (err as { name: string }).name : ''
  const detail = err instanceof Error || isDomException(err) ? (err as { message: string }).message : String(err)
  if (name === 'QuotaExceededError') {
    const writing = ctx.writingBytes === undefined ? '' : ` while writing ${formatBytes(ctx.writingBytes)}`
    return new StorageQuotaError(
      `${ctx.what}: the browser's storage quota is exhausted${writing}; nothing was written. ` +
        'Free space (delete data or other databases of this site), or bound the log with retention.bytes / retention.ms.',
      { cause: err, retriable: false },
    )
  }
  return new KafkaStorageError(`${ctx.what}: IndexedDB failed (${name || 'error'}${detail ? `: ${detail}` : ''})`, {
    cause: err,
  })
}

function isDomException(err: unknown): boolean {
  return typeof DOMException !== 'undefined' && err instanceof DOMException
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`
  return `${(n / 1024 / 1024).toFixed(1)} MiB`
}
