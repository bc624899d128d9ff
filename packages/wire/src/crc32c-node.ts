/**
 * CRC32C (Castagnoli) for Node: @node-rs/crc32 uses the CPU's CRC32 instructions (SSE4.2 /
 * ARMv8), an order of magnitude faster than a table in JS. It accepts any Uint8Array view, so
 * batches are checksummed in place without copying.
 */
import { crc32c as nativeCrc32c } from '@node-rs/crc32'

/** Which implementation the package conditions selected: 'native' here, 'js' in browsers. */
export const crc32cImplementation: 'js' | 'native' = 'native'

/**
 * Standard CRC32C (init 0xffffffff, final xor) as an unsigned 32-bit number. `initial` is a
 * previous result, to continue a checksum over several chunks.
 */
export function crc32c(data: Uint8Array, initial = 0): number {
  return nativeCrc32c(data, initial)
}
