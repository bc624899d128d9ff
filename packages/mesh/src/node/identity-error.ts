import { ErrorCode, TributaryError } from '@tributary/wire'

/** The key file exists but does not hold a key: refuse to start rather than silently take a new identity. */
export class PeerKeyCorruptError extends TributaryError {
  static override name = 'PeerKeyCorruptError'
  constructor(where: string, options?: { cause?: unknown }) {
    super(`${where} does not contain a valid libp2p private key; move it away to create a new identity`, {
      ...options,
      code: ErrorCode.INVALID_CONFIG,
      retriable: false,
    })
  }
}
