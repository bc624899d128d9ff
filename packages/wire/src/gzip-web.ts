/**
 * gzip for browsers through the Compression Streams API. Decompression counts bytes as they
 * come out and cancels the stream at the cap, so a hostile blob cannot inflate unboundedly.
 */
import { CorruptRecordError, RecordTooLargeError } from './errors.js'

export async function gzipCompress(data: Uint8Array): Promise<Uint8Array> {
  const chunks = await readAll(pipeThrough(new CompressionStream('gzip'), data), Number.POSITIVE_INFINITY)
  return concat(chunks)
}

export async function gzipDecompress(data: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  let chunks: Uint8Array[]
  try {
    chunks = await readAll(pipeThrough(new DecompressionStream('gzip'), data), maxBytes)
  } catch (cause) {
    if (cause instanceof RecordTooLargeError) throw cause
    throw new CorruptRecordError('gzip-compressed records are not valid gzip data', { cause })
  }
  return concat(chunks)
}

function pipeThrough(stream: CompressionStream | DecompressionStream, data: Uint8Array): ReadableStream<Uint8Array> {
  const writer = stream.writable.getWriter()
  // Errors surface on the readable side; these promises only need their rejections observed.
  writer.write(data as Uint8Array<ArrayBuffer>).catch(() => {})
  writer.close().catch(() => {})
  return stream.readable
}

async function readAll(readable: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array[]> {
  const reader = readable.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return chunks
    total += value.byteLength
    if (total > maxBytes) {
      reader.cancel().catch(() => {})
      throw new RecordTooLargeError(`gzip records decompress to more than the ${maxBytes}-byte limit`)
    }
    chunks.push(value)
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  let length = 0
  for (const chunk of chunks) length += chunk.byteLength
  const out = new Uint8Array(length)
  let pos = 0
  for (const chunk of chunks) {
    out.set(chunk, pos)
    pos += chunk.byteLength
  }
  return out
}
