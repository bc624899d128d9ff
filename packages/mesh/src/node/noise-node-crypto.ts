/**
 * Noise's cipher for Node peers and clients: @libp2p/noise's own default, except that a large
 * message is encrypted without copying it again.
 *
 * Why: the default encrypts a message given as one Uint8Array with `cipher.update`, then
 * `Buffer.concat`s the output with the 16-byte tag — a second allocation and copy of every byte
 * sent (noise splits a stream into messages of up to 64 KiB). Besides the copy, fresh
 * ArrayBuffers count towards V8's old-generation limit until a collection frees them, so this
 * churn brings major collections closer. Given the same message as a one-part list, the library
 * answers with a list (ciphertext, tag) instead, which noise appends to its output as it is and
 * the socket writes as separate buffers: the library's own cipher, its other path.
 *
 * Only messages of at least `LIST_FROM_BYTES` take this path: handshake messages (small) get the
 * library's answer byte for byte. Decryption is the library's cipher too; `decryptWithoutJoining`
 * (below) only spares it a join of the message's pieces. `nodeNoise()` puts both together.
 */
import type { ConnectionEncrypter } from '@libp2p/interface'
import { type ICryptoInterface, type NoiseComponents, noise } from '@libp2p/noise'
import { defaultCrypto } from '@libp2p/noise/crypto'
import { Uint8ArrayList } from 'uint8arraylist'
import { noiseWithoutThrows } from './noise-frame-lengths.js'

/** Plaintexts from this size are encrypted into a list (the default already uses Node's cipher above 1200 bytes). */
export const LIST_FROM_BYTES = 16 * 1024

export const nodeNoiseCrypto: ICryptoInterface = {
  ...defaultCrypto,
  chaCha20Poly1305Encrypt(plaintext, nonce, ad, k) {
    const asList = plaintext instanceof Uint8Array && plaintext.byteLength >= LIST_FROM_BYTES
    return defaultCrypto.chaCha20Poly1305Encrypt(asList ? new Uint8ArrayList(plaintext) : plaintext, nonce, ad, k)
  },
}

/** Noise messages are at most this long on the wire, the tag included. */
const MAX_NOISE_MESSAGE_BYTES = 0xffff
/** Below this ciphertext size the library's default cipher is its WebAssembly one, which decrypts into `dst`. */
const NODE_CIPHER_FROM_BYTES = 1200

interface ConnectionInternals {
  decrypt: (chunk: Uint8Array | Uint8ArrayList) => Uint8ArrayList
  handshake: { decrypt: (ciphertext: Uint8ArrayList, dst?: Uint8Array) => Uint8Array | Uint8ArrayList }
  metrics?: { decryptedPackets?: { increment: () => void } }
}

/**
 * Decryption of a message that arrived in pieces, without joining them first.
 *
 * Why: for each message, @libp2p/noise 17 cuts a `dst` for the plaintext with `chunk.subarray()`,
 * so the WebAssembly cipher can decrypt small messages in place. When the message spans several
 * socket reads (most 64 KiB messages do), that call joins the pieces: a copy of every byte
 * received. The Node cipher, which the library uses from 1,200 bytes, ignores `dst`. `perf` on
 * the peer bench's peer (produce phase) put 3.7% of its CPU in that copy.
 *
 * How: a message given as a list and long enough for the Node cipher goes straight to the
 * handshake's `decrypt` with no `dst`. The cipher reads the list piece by piece, and the nonce
 * advances exactly as in the library. Anything else (a contiguous message, whose `dst` is a free
 * view; a small one; a chunk of several messages) takes the library's path. A connection without
 * the expected `decrypt` and `handshake` (a changed noise) is left as it is. Node only: in a
 * browser the JavaScript cipher decrypts into `dst`, which saves its own allocation there.
 */
export function decryptWithoutJoining(connection: unknown): void {
  const target = connection as Partial<ConnectionInternals> | undefined
  const library = target?.decrypt
  const handshake = target?.handshake
  if (typeof library !== 'function' || typeof handshake?.decrypt !== 'function') return
  target!.decrypt = (chunk) => {
    const length = chunk.byteLength
    if (chunk instanceof Uint8Array || length < NODE_CIPHER_FROM_BYTES || length > MAX_NOISE_MESSAGE_BYTES) {
      return library.call(target, chunk)
    }
    const plaintext = handshake.decrypt(chunk, undefined)
    target!.metrics?.decryptedPackets?.increment()
    return new Uint8ArrayList(plaintext)
  }
}

/** Noise for Node peers and clients: this cipher, decryption without joining, frame lengths without throws. */
export function nodeNoise(): (components: NoiseComponents) => ConnectionEncrypter {
  return noiseWithoutThrows(noise({ crypto: nodeNoiseCrypto }), decryptWithoutJoining)
}
