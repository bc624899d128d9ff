import { InvalidRequestError, TributaryError } from '@tributary/wire'

export { InvalidRequestError }

/** The error code and message a partition-level response carries for `err`. */
export function errorFields(err: unknown): { errorCode: number; errorMessage: string } {
  if (err instanceof TributaryError) return { errorCode: err.code, errorMessage: err.message }
  return { errorCode: -1, errorMessage: 'internal error' }
}

/** Decodes a protobuf request, turning any decoding failure into an InvalidRequestError. */
export function decodeRequest<T>(name: string, decode: () => T): T {
  try {
    return decode()
  } catch (err) {
    throw new InvalidRequestError(`malformed ${name} request`, { cause: err })
  }
}
