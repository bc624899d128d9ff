import { noise } from '@libp2p/noise'
import { LengthPrefixedDecoder } from '@libp2p/utils'
import { Uint8ArrayList } from 'uint8arraylist'
import { describe, expect, it } from 'vitest'
import { noiseWithoutThrows, patchConnection } from '../../src/node/noise-frame-lengths.js'
import { securedPair } from './noise-pair.js'

/** Noise's own 2-byte length reader, as @libp2p/noise 17 writes it: it throws when the bytes run out. */
function uint16BE(data: Uint8ArrayList | Uint8Array): number {
  if (data.length < 2) throw new RangeError('Could not decode int16BE')
  return data instanceof Uint8Array ? (data[0]! << 8) | data[1]! : data.getUint16(0)
}

/** Two noise-framed messages, and the decoder noise makes, wrapped as its connection holds it. */
function framedMessages(): { bytes: Uint8Array; messages: number[][] } {
  const messages = [[1, 2, 3], Array.from({ length: 300 }, (_, i) => i % 256)]
  const bytes = messages.flatMap((m) => [m.length >> 8, m.length & 0xff, ...m])
  return { bytes: Uint8Array.from(bytes), messages }
}

function decode(patched: boolean, chunks: Uint8Array[]): { out: number[][]; throws: number } {
  let throws = 0
  const counting = (data: Uint8ArrayList | Uint8Array): number => {
    try {
      return uint16BE(data)
    } catch (err) {
      throws++
      throw err
    }
  }
  const connection = {
    decoder: new LengthPrefixedDecoder({ lengthDecoder: counting, encodingLength: () => 2, maxBufferSize: 1 << 20 }),
  }
  if (patched) patchConnection(connection)
  const out: number[][] = []
  for (const chunk of chunks) for (const message of connection.decoder.decode(chunk)) out.push([...message.subarray()])
  return { out, throws }
}

describe('node > noise frame lengths', () => {
  it('splits chunks into the same messages without a thrown error per chunk', () => {
    const { bytes, messages } = framedMessages()
    // Whole, byte by byte, and cut inside a length prefix.
    const splits = [[bytes], [...bytes].map((b) => Uint8Array.of(b)), [bytes.subarray(0, 6), bytes.subarray(6)]]
    for (const chunks of splits) {
      const library = decode(false, chunks)
      const patched = decode(true, chunks)
      expect(library.out).toEqual(messages)
      expect(patched.out).toEqual(messages)
      expect(library.throws).toBeGreaterThan(0)
      expect(patched.throws).toBe(0)
    }
  })

  it('leaves a connection without the expected decoder as it is', () => {
    const original = (): number => 0
    const connection = { decoder: { lengthDecoder: original } }
    patchConnection({})
    patchConnection(undefined)
    patchConnection({ decoder: {} })
    expect(connection.decoder.lengthDecoder).toBe(original)
  })

  it('patches both ends of a real noise handshake, which then carry data in small chunks', async () => {
    const { client, server } = await securedPair(noiseWithoutThrows(noise()))
    for (const end of [client, server]) {
      const read = (end.connection as unknown as { decoder: { lengthDecoder: (d: Uint8ArrayList) => number } }).decoder
        .lengthDecoder
      expect(read(new Uint8ArrayList(Uint8Array.of(1)))).toBe(0xffff)
      expect(read(new Uint8ArrayList(Uint8Array.of(1, 2)))).toBe(258)
    }
    const received: Uint8Array[] = []
    server.connection.addEventListener('message', (evt) => received.push(evt.data.subarray()))
    const sent = Array.from({ length: 20 }, (_, i) => Uint8Array.from({ length: 1 + i * 37 }, (_, j) => (i + j) % 256))
    for (const message of sent) client.connection.send(message)
    const deadline = Date.now() + 10_000
    // Bounded: waits at most 10 s for the 20 messages to arrive.
    while (received.reduce((n, r) => n + r.byteLength, 0) < sent.reduce((n, m) => n + m.byteLength, 0)) {
      if (Date.now() > deadline) throw new Error(`received ${received.length} of ${sent.length} messages`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(Buffer.concat(received)).toEqual(Buffer.concat(sent))
    await Promise.all([client.connection.close(), server.connection.close()])
  })
})
