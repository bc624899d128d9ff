/**
 * UTF-8 for record header keys. Encoding is done by hand so the batch encoder can size and
 * write a key straight into its buffer; lone surrogates become U+FFFD exactly as TextEncoder
 * does. Decoding is strict: invalid UTF-8 is a corrupt batch, not a string with U+FFFD.
 */
import { CorruptRecordError } from './errors.js'

/** Byte length of `text` in UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) length += 1
    else if (c < 0x800) length += 2
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      length += 4
      i++
    } else length += 3
  }
  return length
}

/** Writes `text` as UTF-8 at `pos` (room for utf8Length(text) bytes must exist); returns the new position. */
export function writeUtf8(buf: Uint8Array, pos: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c < 0x80) {
      buf[pos++] = c
    } else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6)
      buf[pos++] = 0x80 | (c & 0x3f)
    } else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      c = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00)
      buf[pos++] = 0xf0 | (c >> 18)
      buf[pos++] = 0x80 | ((c >> 12) & 0x3f)
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f)
      buf[pos++] = 0x80 | (c & 0x3f)
    } else {
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd
      buf[pos++] = 0xe0 | (c >> 12)
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f)
      buf[pos++] = 0x80 | (c & 0x3f)
    }
  }
  return pos
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}

// ignoreBOM keeps a leading U+FEFF in the key instead of silently dropping it.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Decodes buf[start, end) as strict UTF-8; CorruptRecordError if it is not valid. */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  // Short ASCII keys are the common case and cheaper to build directly than through TextDecoder.
  if (end - start <= 32) {
    let text = ''
    let i = start
    for (; i < end; i++) {
      const c = buf[i]!
      if (c > 0x7f) break
      text += String.fromCharCode(c)
    }
    if (i === end) return text
  }
  try {
    return decoder.decode(buf.subarray(start, end))
  } catch (cause) {
    throw new CorruptRecordError('record header key is not valid UTF-8', { cause })
  }
}

/**
 * Whether buf[start, end) is well-formed UTF-8 (the WHATWG decoder's rules: no overlong forms,
 * no surrogates, nothing above U+10FFFF), without allocating a string.
 */
export function isValidUtf8(buf: Uint8Array, start: number, end: number): boolean {
  let i = start
  while (i < end) {
    const b = buf[i]!
    if (b < 0x80) {
      i++
      continue
    }
    let need: number
    let lower = 0x80
    let upper = 0xbf
    if (b >= 0xc2 && b <= 0xdf) need = 1
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2
      if (b === 0xe0) lower = 0xa0
      else if (b === 0xed) upper = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3
      if (b === 0xf0) lower = 0x90
      else if (b === 0xf4) upper = 0x8f
    } else return false
    if (i + need >= end) return false
    const second = buf[i + 1]!
    if (second < lower || second > upper) return false
    for (let k = 2; k <= need; k++) {
      const next = buf[i + k]!
      if (next < 0x80 || next > 0xbf) return false
    }
    i += need + 1
  }
  return true
}
