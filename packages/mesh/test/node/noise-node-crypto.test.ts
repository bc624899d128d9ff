import { randomBytes } from 'node:crypto'
import { defaultCrypto } from '@libp2p/noise/crypto'
import { Uint8ArrayList } from 'uint8arraylist'
import { describe, expect, it } from 'vitest'
import { LIST_FROM_BYTES, nodeNoiseCrypto } from '../../src/node/noise-node-crypto.js'

const bytesOf = (x: Uint8Array | Uint8ArrayList): Uint8Array => (x instanceof Uint8Array ? x : x.subarray())

describe('mesh > node > noise cipher without a second copy', () => {
  const k = randomBytes(32)
  const nonce = randomBytes(12)
  const ad = randomBytes(32)

  it('encrypts a large message into the same bytes as the library, as a list of the ciphertext and tag', () => {
    for (const size of [LIST_FROM_BYTES, 65_519]) {
      const plaintext = randomBytes(size)
      const ours = nodeNoiseCrypto.chaCha20Poly1305Encrypt(plaintext, nonce, ad, k)
      expect(ours).toBeInstanceOf(Uint8ArrayList)
      expect(ours.byteLength).toBe(size + 16)
      expect(Buffer.from(bytesOf(ours))).toEqual(
        Buffer.from(bytesOf(defaultCrypto.chaCha20Poly1305Encrypt(plaintext, nonce, ad, k))),
      )
      // And the library decrypts it, from the list as noise's decoder hands it over.
      const plain = defaultCrypto.chaCha20Poly1305Decrypt(new Uint8ArrayList(bytesOf(ours)), nonce, ad, k, undefined)
      expect(Buffer.from(bytesOf(plain))).toEqual(Buffer.from(plaintext))
    }
  })

  it("leaves small messages (the handshake's) and lists to the library", () => {
    const small = randomBytes(LIST_FROM_BYTES - 1)
    const ours = nodeNoiseCrypto.chaCha20Poly1305Encrypt(small, nonce, ad, k)
    expect(ours).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(bytesOf(ours))).toEqual(
      Buffer.from(bytesOf(defaultCrypto.chaCha20Poly1305Encrypt(small, nonce, ad, k))),
    )
    const list = new Uint8ArrayList(randomBytes(LIST_FROM_BYTES), randomBytes(100))
    expect(Buffer.from(bytesOf(nodeNoiseCrypto.chaCha20Poly1305Encrypt(list, nonce, ad, k)))).toEqual(
      Buffer.from(bytesOf(defaultCrypto.chaCha20Poly1305Encrypt(list, nonce, ad, k))),
    )
  })

  it('fails to decrypt a tampered message', () => {
    const sealed = bytesOf(nodeNoiseCrypto.chaCha20Poly1305Encrypt(randomBytes(LIST_FROM_BYTES), nonce, ad, k))
    sealed[100]! ^= 1
    expect(() => nodeNoiseCrypto.chaCha20Poly1305Decrypt(sealed, nonce, ad, k, undefined)).toThrow()
  })
})
