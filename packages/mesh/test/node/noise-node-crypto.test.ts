import { randomBytes } from 'node:crypto'
import { defaultCrypto } from '@libp2p/noise/crypto'
import { Uint8ArrayList } from 'uint8arraylist'
import { describe, expect, it } from 'vitest'
import { decryptWithoutJoining, LIST_FROM_BYTES, nodeNoise, nodeNoiseCrypto } from '../../src/node/noise-node-crypto.js'
import { securedPair } from './noise-pair.js'

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

type Decrypt = (ciphertext: Uint8ArrayList | Uint8Array, dst?: Uint8Array) => Uint8Array | Uint8ArrayList

/** A stand-in for noise's connection: its decrypt is "the library's", its handshake records what it was given. */
function fakeConnection() {
  const handshakeCalls: Array<{ ciphertext: Uint8ArrayList | Uint8Array; dst: Uint8Array | undefined }> = []
  const libraryCalls: Array<Uint8Array | Uint8ArrayList> = []
  const connection = {
    decrypt: (chunk: Uint8Array | Uint8ArrayList): Uint8ArrayList => {
      libraryCalls.push(chunk)
      return new Uint8ArrayList(Uint8Array.of(7))
    },
    handshake: {
      decrypt: ((ciphertext, dst) => {
        handshakeCalls.push({ ciphertext, dst })
        return Uint8Array.of(1, 2, 3)
      }) as Decrypt,
    },
  }
  return { connection, handshakeCalls, libraryCalls }
}

describe('mesh > node > noise decryption without joining a message’s pieces', () => {
  it('hands a message in pieces, long enough for the Node cipher, to the handshake with no dst', () => {
    const { connection, handshakeCalls, libraryCalls } = fakeConnection()
    decryptWithoutJoining(connection)
    const pieces = new Uint8ArrayList(randomBytes(1000), randomBytes(1000))
    const out = connection.decrypt(pieces)
    expect(handshakeCalls).toEqual([{ ciphertext: pieces, dst: undefined }])
    expect(libraryCalls).toEqual([])
    expect(out.subarray()).toEqual(Uint8Array.of(1, 2, 3))
  })

  it('leaves contiguous, small and oversized chunks to the library', () => {
    const { connection, handshakeCalls, libraryCalls } = fakeConnection()
    decryptWithoutJoining(connection)
    const contiguous = randomBytes(5000)
    const small = new Uint8ArrayList(randomBytes(600), randomBytes(599))
    const twoMessages = new Uint8ArrayList(randomBytes(0xffff), randomBytes(100))
    for (const chunk of [contiguous, small, twoMessages]) connection.decrypt(chunk)
    expect(libraryCalls).toEqual([contiguous, small, twoMessages])
    expect(handshakeCalls).toEqual([])
  })

  it('leaves a connection without the expected decrypt and handshake as it is', () => {
    const decrypt = (): void => {}
    const withoutHandshake = { decrypt }
    decryptWithoutJoining(withoutHandshake)
    decryptWithoutJoining({})
    decryptWithoutJoining(undefined)
    expect(withoutHandshake.decrypt).toBe(decrypt)
  })

  it('carries 1 MiB between two real noise ends unchanged, its large messages decrypted from their pieces', async () => {
    const { client, server } = await securedPair(nodeNoise())
    // Count the messages the handshake decrypted from pieces, with no dst (the patched path).
    const handshake = (server.connection as unknown as { handshake: { decrypt: Decrypt } }).handshake
    const decrypt = handshake.decrypt.bind(handshake)
    let fromPieces = 0
    handshake.decrypt = (ciphertext, dst) => {
      if (ciphertext instanceof Uint8ArrayList && [...ciphertext].length > 1 && dst === undefined) fromPieces++
      return decrypt(ciphertext, dst)
    }
    const received: Uint8Array[] = []
    server.connection.addEventListener('message', (evt) => received.push(evt.data.subarray()))
    const sent = randomBytes(1024 * 1024)
    for (let i = 0; i < sent.byteLength; i += 100_000) {
      if (!client.connection.send(sent.subarray(i, i + 100_000))) {
        await new Promise((resolve) => client.connection.addEventListener('drain', resolve, { once: true }))
      }
    }
    const deadline = Date.now() + 10_000
    // Bounded: waits at most 10 s for the megabyte to arrive.
    while (received.reduce((n, r) => n + r.byteLength, 0) < sent.byteLength) {
      if (Date.now() > deadline) throw new Error(`received ${received.length} messages, not all of 1 MiB`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(Buffer.concat(received)).toEqual(sent)
    expect(fromPieces).toBeGreaterThan(0)
    await Promise.all([client.connection.close(), server.connection.close()])
  })
})
