/**
 * Error frames carry protobuf `RpcError { code, message }`. A TributaryError thrown by a handler
 * travels as its own code and message; anything else becomes UNKNOWN_SERVER_ERROR with a generic
 * message, so internals (paths, stack traces) never leak to a peer.
 */
import { ErrorCode, errorFromCode, TributaryError } from '@tributary/wire'
import { RpcError } from '@tributary/wire/pb/rpc'
import { MAX_ERROR_MESSAGE_LENGTH } from '../constants.js'
import { InvalidFrameError } from './errors.js'

export function encodeErrorPayload(err: TributaryError | { code: number; message: string }): Uint8Array {
  return RpcError.encode({ code: err.code, message: truncate(err.message) })
}

/** Whether `err` may be shown to the peer as is. */
export function isWireError(err: unknown): err is TributaryError {
  return err instanceof TributaryError
}

export function unknownServerError(protocol: string): { code: number; message: string } {
  return { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: `internal error while handling a ${protocol} request` }
}

/** The typed error an error frame stands for. Throws InvalidFrameError when the payload does not decode. */
export function decodeErrorPayload(payload: Uint8Array): TributaryError {
  let decoded: RpcError
  try {
    decoded = RpcError.decode(payload)
  } catch (err) {
    throw new InvalidFrameError(`undecodable RPC error payload: ${(err as Error).message}`)
  }
  return errorFromCode(decoded.code, truncate(decoded.message))
}

function truncate(message: string): string {
  return message.length <= MAX_ERROR_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH - 1)}…`
}
