/**
 * Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2), the hash its default partitioner
 * applies to record keys. 32-bit arithmetic through Math.imul and `| 0`, so a key lands on the
 * same partition number as with the Java client and KafkaJS's DefaultPartitioner.
 */

const SEED = 0x9747b28c
const M = 0x5bd1e995
const R = 24

export function murmur2(data: Uint8Array): number {
  const length = data.length
  let h = SEED ^ length
  const length4 = length >>> 2
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24)
    k = Math.imul(k, M)
    k ^= k >>> R
    k = Math.imul(k, M)
    h = Math.imul(h, M) ^ k
  }
  // The tail bytes, as Java's fall-through switch mixes them.
  const tail = length & ~3
  const rest = length & 3
  if (rest === 3) h ^= data[tail + 2]! << 16
  if (rest >= 2) h ^= data[tail + 1]! << 8
  if (rest >= 1) {
    h ^= data[tail]!
    h = Math.imul(h, M)
  }
  h ^= h >>> 13
  h = Math.imul(h, M)
  h ^= h >>> 15
  return h | 0
}

/** Kafka's Utils.toPositive: clears the sign bit (not Math.abs, which differs for negatives). */
export function toPositive(n: number): number {
  return n & 0x7fffffff
}
