/**
 * Noise's frame reader without an exception per received chunk.
 *
 * Why: @libp2p/noise 17 splits the byte stream into noise messages with @libp2p/utils'
 * `LengthPrefixedDecoder`, which reads lengths until its buffer runs dry and learns that it did
 * from the length reader throwing a `RangeError` ("Could not decode int16BE"). So every chunk a
 * connection receives ends in a thrown error, and V8 captures a stack trace for each one. `perf`
 * on the mesh bench's peers (acks=all at 10,000 records/s) put 4–5 % of each peer's CPU in those
 * stack captures — more than the decryption itself at that message size.
 *
 * How: the encrypter factory is wrapped, and each secured connection's decoder gets a length reader
 * that answers "a whole noise message is still due" (the largest length, 65,535) instead of
 * throwing while fewer than two bytes are buffered. The decoder then waits for more bytes, exactly
 * as after the `RangeError`; with two or more bytes the library's reader runs unchanged. It relies
 * on the connection keeping its decoder in `decoder` with a `lengthDecoder`; if either is missing
 * (a changed noise), connections are left as the library made them. No node: imports, so browser
 * nodes use it too.
 */
import type { ConnectionEncrypter } from '@libp2p/interface'

type EncrypterFactory<C> = (components: C) => ConnectionEncrypter

/** Noise messages are at most this long; a length that large leaves the decoder waiting for bytes. */
const MAX_NOISE_MESSAGE_BYTES = 0xffff

interface DecoderInternals {
  lengthDecoder: (data: { byteLength: number }) => number
}

/**
 * Wraps a connection encrypter factory (`noise()`) so its connections read frame lengths without
 * throwing. `alsoPatch` gets each secured connection after that (Node's decryption patch).
 */
export function noiseWithoutThrows<C>(
  factory: EncrypterFactory<C>,
  alsoPatch?: (connection: unknown) => void,
): EncrypterFactory<C> {
  return (components) => {
    const encrypter = factory(components)
    return new Proxy(encrypter, {
      get(target, property, receiver) {
        if (property === 'secureInbound' || property === 'secureOutbound') {
          const secure = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>
          return async (...args: unknown[]) => {
            const secured = await secure.apply(target, args)
            const connection = (secured as { connection?: unknown } | undefined)?.connection
            patchConnection(connection)
            alsoPatch?.(connection)
            return secured
          }
        }
        return Reflect.get(target, property, receiver)
      },
    }) as ConnectionEncrypter
  }
}

/** Exported for tests. */
export function patchConnection(connection: unknown): void {
  const decoder = (connection as { decoder?: Partial<DecoderInternals> } | undefined)?.decoder
  const readLength = decoder?.lengthDecoder
  if (decoder === undefined || typeof readLength !== 'function') return
  decoder.lengthDecoder = (data) => (data.byteLength < 2 ? MAX_NOISE_MESSAGE_BYTES : readLength(data))
}
