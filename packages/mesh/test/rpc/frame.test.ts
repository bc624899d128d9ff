import { describe, expect, it } from 'vitest'
import { FrameTooLargeError, InvalidFrameError } from '../../src/rpc/errors.js'
import { encodeFrame, FRAME_HEADER_BYTES, type Frame, FrameDecoder, FrameKind } from '../../src/rpc/frame.js'

function drain(decoder: FrameDecoder): Frame[] {
  const frames: Frame[] = []
  for (let frame = decoder.next(); frame !== undefined; frame = decoder.next()) frames.push(frame)
  return frames
}

function header(length: number, correlationId: number, kind: number): Uint8Array {
  const bytes = new Uint8Array(FRAME_HEADER_BYTES)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, length)
  view.setUint32(4, correlationId)
  view.setUint8(8, kind)
  return bytes
}

describe('rpc > frame', () => {
  it('encodes [u32 length][u32 correlationId][u8 kind][payload] with length = bytes after the length field', () => {
    const frame = encodeFrame(0x01020304, FrameKind.Error, new Uint8Array([9, 8, 7]))
    expect([...frame]).toEqual([0, 0, 0, 8, 1, 2, 3, 4, 2, 9, 8, 7])
  })

  it('decodes frames split across chunks at every byte and several frames in one chunk', () => {
    const payloads = [new Uint8Array(0), new Uint8Array([1]), new Uint8Array(300).fill(7)]
    const bytes = new Uint8Array(payloads.reduce((n, p) => n + FRAME_HEADER_BYTES + p.byteLength, 0))
    let offset = 0
    payloads.forEach((payload, i) => {
      const frame = encodeFrame(i + 1, FrameKind.Response, payload)
      bytes.set(frame, offset)
      offset += frame.byteLength
    })

    const oneChunk = new FrameDecoder({ maxPayloadBytes: 1024 })
    oneChunk.push(bytes)
    expect(drain(oneChunk).map((f) => [f.correlationId, f.kind, f.payload.byteLength])).toEqual([
      [1, FrameKind.Response, 0],
      [2, FrameKind.Response, 1],
      [3, FrameKind.Response, 300],
    ])

    const byteByByte = new FrameDecoder({ maxPayloadBytes: 1024 })
    const frames: Frame[] = []
    for (const byte of bytes) {
      byteByByte.push(new Uint8Array([byte]))
      frames.push(...drain(byteByByte))
    }
    expect(frames.map((f) => f.correlationId)).toEqual([1, 2, 3])
    expect(frames[2]?.payload).toEqual(payloads[2])
    expect(byteByByte.bufferedBytes).toBe(0)
  })

  it('decodes frames byte-exact from chunks cut at random places, frames starting and ending mid-chunk (seeded)', () => {
    let seed = 0x5eed
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed % n
    }
    const payloads = Array.from({ length: 200 }, (_, i) =>
      Uint8Array.from({ length: random(3) === 0 ? random(2000) : random(40) }, (_, j) => (i * 31 + j) & 0xff),
    )
    const stream = Buffer.concat(payloads.map((p, i) => encodeFrame(i + 1, FrameKind.Response, p)))
    const decoder = new FrameDecoder({ maxPayloadBytes: 4096 })
    const frames: Frame[] = []
    for (let at = 0; at < stream.byteLength; ) {
      const n = 1 + random(random(4) === 0 ? 5000 : 64)
      // Node Buffers, as sockets deliver them; payloads must come out as plain Uint8Arrays.
      decoder.push(stream.subarray(at, at + n))
      at += n
      frames.push(...drain(decoder))
    }
    expect(frames.map((f) => f.correlationId)).toEqual(payloads.map((_, i) => i + 1))
    frames.forEach((f, i) => {
      expect(Buffer.isBuffer(f.payload)).toBe(false)
      expect(f.payload).toEqual(payloads[i])
    })
    expect(decoder.bufferedBytes).toBe(0)
    expect(decoder.hasPartialFrame).toBe(false)
  })

  it('decodes two frames cut into three chunks at every pair of places', () => {
    const stream = Buffer.concat([
      encodeFrame(7, FrameKind.Request, new Uint8Array([1, 2, 3, 4, 5])),
      encodeFrame(0x0a0b0c0d, FrameKind.Error, new Uint8Array([6, 7])),
    ])
    for (let a = 0; a <= stream.byteLength; a++) {
      for (let b = a; b <= stream.byteLength; b++) {
        const decoder = new FrameDecoder({ maxPayloadBytes: 16 })
        const frames: Frame[] = []
        for (const chunk of [stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)]) {
          decoder.push(chunk)
          frames.push(...drain(decoder))
        }
        expect(frames).toEqual([
          { correlationId: 7, kind: FrameKind.Request, payload: new Uint8Array([1, 2, 3, 4, 5]) },
          { correlationId: 0x0a0b0c0d, kind: FrameKind.Error, payload: new Uint8Array([6, 7]) },
        ])
      }
    }
  })

  it('accepts Uint8ArrayList-like chunks (any iterable of Uint8Array)', () => {
    const frame = encodeFrame(5, FrameKind.Request, new Uint8Array([1, 2, 3]))
    const decoder = new FrameDecoder({ maxPayloadBytes: 16 })
    decoder.push([frame.subarray(0, 4), frame.subarray(4)])
    expect(drain(decoder)).toEqual([{ correlationId: 5, kind: FrameKind.Request, payload: new Uint8Array([1, 2, 3]) }])
  })

  it('rejects an oversize frame from its length field alone, before any payload arrives', () => {
    const decoder = new FrameDecoder({ maxPayloadBytes: 1024 })
    decoder.push(header(2 ** 31, 0, 0).subarray(0, 4))
    expect(() => decoder.next()).toThrow(FrameTooLargeError)
    expect(decoder.bufferedBytes).toBe(4)
  })

  it('names the request of an oversize frame once the header is complete', () => {
    const decoder = new FrameDecoder({ maxPayloadBytes: 10 })
    decoder.push(header(5 + 11, 42, FrameKind.Response))
    const err = (() => {
      try {
        decoder.next()
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(FrameTooLargeError)
    expect((err as FrameTooLargeError).correlationId).toBe(42)
    expect((err as FrameTooLargeError).declaredBytes).toBe(11)
  })

  it('accepts a frame of exactly the limit', () => {
    const decoder = new FrameDecoder({ maxPayloadBytes: 10 })
    decoder.push(encodeFrame(1, FrameKind.Request, new Uint8Array(10)))
    expect(drain(decoder)).toHaveLength(1)
  })

  it('rejects unknown kinds and lengths shorter than the header', () => {
    const unknownKind = new FrameDecoder({ maxPayloadBytes: 10 })
    unknownKind.push(header(5, 1, 3))
    expect(() => unknownKind.next()).toThrow(InvalidFrameError)

    const tooShort = new FrameDecoder({ maxPayloadBytes: 10 })
    tooShort.push(header(4, 1, 0))
    expect(() => tooShort.next()).toThrow(InvalidFrameError)
  })

  it('never holds more than one incomplete frame (limit + header) once whole frames are taken', () => {
    const max = 1000
    const decoder = new FrameDecoder({ maxPayloadBytes: max })
    const stream: Uint8Array[] = []
    for (let i = 0; i < 50; i++) stream.push(encodeFrame(i, FrameKind.Request, new Uint8Array((i * 97) % (max + 1))))
    const bytes = Buffer.concat(stream)
    let peak = 0
    let count = 0
    // Deterministic, irregular chunk sizes up to 3 frames long.
    for (let offset = 0, step = 1; offset < bytes.byteLength; offset += step, step = (step * 7 + 13) % 3000 || 1) {
      decoder.push(bytes.subarray(offset, offset + step))
      count += drain(decoder).length
      peak = Math.max(peak, decoder.bufferedBytes)
    }
    expect(count).toBe(50)
    expect(peak).toBeLessThan(max + FRAME_HEADER_BYTES)
  })
})
