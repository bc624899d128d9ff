/**
 * CRC32C, resolved per platform through the package's `#crc32c` import map: native CPU
 * instructions in Node, slicing-by-8 tables in browsers. Both return identical values.
 */
export { crc32c, crc32cImplementation } from '#crc32c'
