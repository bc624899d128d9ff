/**
 * gzip for Node through zlib (off the main thread, in libuv's pool). Decompression is capped
 * with `maxOutputLength`, so a small hostile blob cannot inflate into gigabytes.
 */
import { promisify } from 'node:util'
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib'
import { CorruptRecordError, RecordTooLargeError } from './errors.js'

const gzipAsync = promisify(gzipCallback)
const gunzipAsync = promisify(gunzipCallback)

export async function gzipCompress(data: Uint8Array): Promise<Uint8Array> {
  return plain(await gzipAsync(data))
}

export async function gzipDecompress(data: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  let output: Buffer
  try {
    // maxOutputLength must be at least 1; a 0-byte cap is enforced below.
    output = await gunzipAsync(data, { maxOutputLength: Math.max(1, maxBytes) })
  } catch (cause) {
    if ((cause as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new RecordTooLargeError(`gzip records decompress to more than the ${maxBytes}-byte limit`, { cause })
    }
    throw new CorruptRecordError('gzip-compressed records are not valid gzip data', { cause })
  }
  if (output.length > maxBytes) {
    throw new RecordTooLargeError(`gzip records decompress to more than the ${maxBytes}-byte limit`)
  }
  return plain(output)
}

/** A plain Uint8Array view of a Buffer (no copy), so callers never see Buffer-specific behaviour. */
function plain(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
}
