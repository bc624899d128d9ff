import { describe, expect, it } from 'vitest'
import { coordinatorPartitionFor, javaStringHashCode } from '../../src/index.ts'

describe('coordinator partition (Kafka: Utils.abs(groupId.hashCode) % 50)', () => {
  it("matches Java's String.hashCode on known values", () => {
    expect(javaStringHashCode('')).toBe(0)
    expect(javaStringHashCode('hello')).toBe(99_162_322)
    // Distinct strings with equal hashes, a classic of Java's hash.
    expect(javaStringHashCode('Aa')).toBe(2112)
    expect(javaStringHashCode('BB')).toBe(2112)
    // Overflows wrap in int32; this one lands exactly on Integer.MIN_VALUE.
    expect(javaStringHashCode('polygenelubricants')).toBe(-2_147_483_648)
    // UTF-16 code units, not code points: an astral character counts as two.
    expect(javaStringHashCode('\u{1F600}')).toBe(0xd83d * 31 + 0xde00)
  })

  it('maps groups to partitions as Kafka does, Integer.MIN_VALUE included', () => {
    expect(coordinatorPartitionFor('hello')).toBe(99_162_322 % 50)
    // Kafka's Utils.abs(Integer.MIN_VALUE) is 0, not Math.abs's negative overflow.
    expect(coordinatorPartitionFor('polygenelubricants')).toBe(0)
    expect(coordinatorPartitionFor('Aa', 7)).toBe(2112 % 7)
    // Printed by a JVM: "billing".hashCode() = -109829509, "grüppe".hashCode() = -1233264812.
    expect(javaStringHashCode('billing')).toBe(-109_829_509)
    expect(coordinatorPartitionFor('billing')).toBe(9)
    expect(javaStringHashCode('grüppe')).toBe(-1_233_264_812)
    expect(coordinatorPartitionFor('grüppe')).toBe(12)
    for (const id of ['a', 'billing', 'x'.repeat(255), 'grüppe']) {
      const p = coordinatorPartitionFor(id)
      expect(Number.isInteger(p) && p >= 0 && p < 50).toBe(true)
    }
    expect(() => coordinatorPartitionFor('a', 0)).toThrow(RangeError)
  })
})
