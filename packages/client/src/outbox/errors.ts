/**
 * The outbox's own failures. A full browser quota is the wire's StorageQuotaError (the same
 * class the IndexedDB log raises), so a caller handles both with one check.
 */
import { ErrorCode, TributaryError } from '@tributary/wire'

/** The outbox holds its `maxRecords` or `maxBytes`; nothing of the refused enqueue was stored. */
export class OutboxFullError extends TributaryError {
  static override name = 'OutboxFullError'
  constructor(message: string) {
    // Retriable: room comes back as the outbox delivers.
    super(message, { code: ErrorCode.RECORD_LIST_TOO_LARGE, retriable: true })
  }
}

/** Another producer (in this tab or another) has this outbox open; one at a time delivers it. */
export class OutboxInUseError extends TributaryError {
  static override name = 'OutboxInUseError'
  constructor(message: string) {
    super(message, { code: ErrorCode.INVALID_REQUEST, retriable: false })
  }
}
