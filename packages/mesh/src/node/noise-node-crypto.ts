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
 * library's answer byte for byte. Decryption is the library's.
 */
import type { ICryptoInterface } from '@libp2p/noise'
import { defaultCrypto } from '@libp2p/noise/crypto'
import { Uint8ArrayList } from 'uint8arraylist'

/** Plaintexts from this size are encrypted into a list (the default already uses Node's cipher above 1200 bytes). */
export const LIST_FROM_BYTES = 16 * 1024

export const nodeNoiseCrypto: ICryptoInterface = {
  ...defaultCrypto,
  chaCha20Poly1305Encrypt(plaintext, nonce, ad, k) {
    const asList = plaintext instanceof Uint8Array && plaintext.byteLength >= LIST_FROM_BYTES
    return defaultCrypto.chaCha20Poly1305Encrypt(asList ? new Uint8ArrayList(plaintext) : plaintext, nonce, ad, k)
  },
}
