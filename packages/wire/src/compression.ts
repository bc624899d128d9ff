/**
 * Compression codecs for record batches, behind one interface. gzip resolves per platform
 * through the package's `#gzip` import map (zlib in Node, Compression Streams in browsers).
 * Snappy, LZ4 and zstd have attribute ids reserved but no codec here yet.
 */
import { gzipCompress, gzipDecompress } from '#gzip'
import { UnsupportedCompressionError } from './errors.js'
import type { CompressionName } from './record-batch-format.js'

export interface CompressionCodec {
  compress(data: Uint8Array): Promise<Uint8Array>
  /** Rejects with RecordTooLargeError past `maxBytes` of output, CorruptRecordError on invalid input. */
  decompress(data: Uint8Array, maxBytes: number): Promise<Uint8Array>
}

const gzip: CompressionCodec = { compress: gzipCompress, decompress: gzipDecompress }

/** The codec for `compression`, or null for 'none'. */
export function codecFor(compression: CompressionName): CompressionCodec | null {
  switch (compression) {
    case 'none':
      return null
    case 'gzip':
      return gzip
    default:
      throw new UnsupportedCompressionError(
        `${compression} compression is not supported by Tributary; use 'gzip' or 'none'`,
      )
  }
}
