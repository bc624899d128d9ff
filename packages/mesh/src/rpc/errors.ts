/**
 * Failures of the RPC layer itself (framing, streams), as opposed to the errors a handler answers
 * with, which travel as their own wire code and come back through `errorFromCode`.
 */
import { ErrorCode, NetworkError, TributaryError } from '@tributary/wire'

/** Kafka's NETWORK_EXCEPTION ("the server disconnected before a response was received"). */
export const NETWORK_EXCEPTION = ErrorCode.NETWORK_EXCEPTION

/** A frame declares (or a payload would need) more bytes than the receiver accepts. */
export class FrameTooLargeError extends TributaryError {
  static override name = 'FrameTooLargeError'
  readonly declaredBytes: number
  readonly maxBytes: number
  /** Set when the frame header was complete enough to name the request it belongs to. */
  readonly correlationId: number | undefined

  constructor(declaredBytes: number, maxBytes: number, correlationId?: number) {
    super(`RPC frame of ${declaredBytes} payload bytes exceeds the limit of ${maxBytes} bytes`, {
      code: ErrorCode.MESSAGE_TOO_LARGE,
      retriable: false,
    })
    this.declaredBytes = declaredBytes
    this.maxBytes = maxBytes
    this.correlationId = correlationId
  }
}

/** Bytes that break the frame grammar: unknown kind, a kind not allowed in this direction, a torn frame. */
export class InvalidFrameError extends TributaryError {
  static override name = 'InvalidFrameError'
  constructor(message: string) {
    super(message, { code: ErrorCode.CORRUPT_MESSAGE, retriable: false })
  }
}

/** The stream carrying a request closed or was reset before its response arrived. Retrying opens a new one. */
export class RpcStreamClosedError extends NetworkError {
  static override name = 'RpcStreamClosedError'
}

/** The peer could not be reached or did not accept the protocol within the dial timeout. */
export class PeerUnreachableError extends NetworkError {
  static override name = 'PeerUnreachableError'
}

/** `request()` on a client after `close()`. */
export class RpcClientClosedError extends TributaryError {
  static override name = 'RpcClientClosedError'
  constructor(message = 'RPC client is closed') {
    super(message, { code: NETWORK_EXCEPTION, retriable: false })
  }
}

/** More requests are waiting for an in-flight slot than the client queues; back off and retry. */
export class RpcQueueFullError extends TributaryError {
  static override name = 'RpcQueueFullError'
  constructor(message: string) {
    super(message, { code: ErrorCode.UNKNOWN_SERVER_ERROR, retriable: true })
  }
}
