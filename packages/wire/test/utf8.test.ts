import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CorruptRecordError } from '../src/index.ts'
import { decodeUtf8, isValidUtf8, utf8Length, writeUtf8 } from '../src/utf8.ts'
import { hex } from './fixtures.ts'

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function strictDecodes(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes)
    return true
  } catch {
    return false
  }
}

describe('wire > utf8', () => {
  it('encodes exactly as TextEncoder, lone surrogates included', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: 'grapheme' }),
          fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
        ),
        (text) => {
          const expected = new TextEncoder().encode(text)
          expect(utf8Length(text)).toBe(expected.length)
          const out = new Uint8Array(expected.length)
          expect(writeUtf8(out, 0, text)).toBe(expected.length)
          expect(out).toEqual(expected)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('validates exactly as the WHATWG strict decoder', () => {
    const bytesArb = fc.oneof(
      fc.uint8Array({ maxLength: 12 }),
      fc
        .array(
          fc.constantFrom(0x41, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0x9f, 0xa0, 0x8f, 0x90),
          { maxLength: 8 },
        )
        .map((a) => Uint8Array.from(a)),
    )
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        const valid = strictDecodes(bytes)
        expect(isValidUtf8(bytes, 0, bytes.length)).toBe(valid)
        if (valid) expect(decodeUtf8(bytes, 0, bytes.length)).toBe(strict.decode(bytes))
        else expect(() => decodeUtf8(bytes, 0, bytes.length)).toThrow(CorruptRecordError)
      }),
      { numRuns: 500 },
    )
  })

  it.each([
    ['overlong NUL', 'c080'],
    ['surrogate', 'eda080'],
    ['above U+10FFFF', 'f4908080'],
    ['truncated', 'e282'],
    ['lone continuation', '80'],
  ])('rejects %s', (_, bytes) => {
    expect(isValidUtf8(hex(bytes), 0, bytes.length / 2)).toBe(false)
    expect(() => decodeUtf8(hex(bytes), 0, bytes.length / 2)).toThrow(CorruptRecordError)
  })

  it('keeps a leading byte-order mark', () => {
    expect(decodeUtf8(hex('efbbbf61'), 0, 4)).toBe('\ufeffa')
  })
})
