/**
 * The SDK's errors. Every failure a peer reports arrives as the class of its wire code through the
 * one table in @tributary/wire (`errorFromCode`); the classes below are the failures only a client
 * can have: a bad argument caught before anything is sent, retries used up, no peer reachable, a
 * closed client. Each has `name`, `code` and `retriable`, like the wire's.
 */
import { ErrorCode, InvalidRequestError, NetworkError, TributaryError } from '@tributary/wire'

/** A caller passed a value of the wrong type or out of range; nothing was sent. */
export class InvalidArgumentError extends InvalidRequestError {
  static override name = 'InvalidArgumentError'
}

/**
 * A retriable failure kept failing until the retry budget ran out (KafkaJS's
 * KafkaJSNumberOfRetriesExceeded). `cause` is the last error; `code` is its code.
 */
export class NumberOfRetriesExceededError extends TributaryError {
  static override name = 'NumberOfRetriesExceededError'
  readonly retryCount: number
  readonly retryTime: number

  constructor(cause: unknown, info: { retryCount: number; retryTime: number }) {
    const message = cause instanceof Error ? cause.message : String(cause)
    super(`${message} (gave up after ${info.retryCount} ${info.retryCount === 1 ? 'retry' : 'retries'})`, {
      cause,
      code: cause instanceof TributaryError ? cause.code : ErrorCode.UNKNOWN_SERVER_ERROR,
      retriable: false,
    })
    this.retryCount = info.retryCount
    this.retryTime = info.retryTime
  }
}

/** None of the bootstrap peers (or peers learned from them) answered. */
export class NoPeerAvailableError extends NetworkError {
  static override name = 'NoPeerAvailableError'
}

/** A producer, consumer or admin used after `disconnect()`. */
export class ClientClosedError extends TributaryError {
  static override name = 'ClientClosedError'
  constructor(message: string) {
    super(message, { code: ErrorCode.NETWORK_EXCEPTION, retriable: false })
  }
}

/** Names a partition the way every message here does: `orders-3`. */
export function partitionName(topic: string, partition: number): string {
  return `${topic}-${partition}`
}
