import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { crc32c as jsCrc32c, crc32cImplementation as jsImplementation } from '../src/crc32c-js.ts'
import { crc32c as nativeCrc32c } from '../src/crc32c-node.ts'
import { crc32c, crc32cImplementation } from '../src/index.ts'
import { CRC32C_VECTORS } from './fixtures.ts'

describe('wire > crc32c', () => {
  it('resolves the native implementation in Node', () => {
    expect(crc32cImplementation).toBe('native')
    expect(jsImplementation).toBe('js')
  })

  for (const [name, implementation] of [
    ['native', nativeCrc32c],
    ['js', jsCrc32c],
    ['exported', crc32c],
  ] as const) {
    it.each(CRC32C_VECTORS)(`${name}: %s`, (_, data, expected) => {
      expect(implementation(data)).toBe(expected)
    })

    it(`${name}: checksums a subarray in place and continues from a previous value`, () => {
      const padded = new Uint8Array(40)
      padded.set(new TextEncoder().encode('123456789'), 13)
      const view = padded.subarray(13, 22)
      expect(implementation(view)).toBe(0xe3069283)
      expect(implementation(view.subarray(4), implementation(view.subarray(0, 4)))).toBe(0xe3069283)
    })
  }

  it('js and native agree on arbitrary data, offsets and chaining', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(20), fc.nat(20), (data, from, cut) => {
        const view = data.subarray(Math.min(from, data.length))
        const expected = nativeCrc32c(view)
        expect(jsCrc32c(view)).toBe(expected)
        const split = Math.min(cut, view.length)
        expect(jsCrc32c(view.subarray(split), jsCrc32c(view.subarray(0, split)))).toBe(expected)
      }),
      { numRuns: 300 },
    )
  })
})
