/** The producer identity: ids in [1, 2^53), sequences per partition from 0, wrapping at 2^31. */
import { describe, expect, it } from 'vitest'
import { ProducerIdentity, randomProducerId, SEQUENCE_MODULUS } from '../../src/producer/idempotence.ts'

describe('client > producer > idempotence', () => {
  it('draws producer ids in [1, 2^53)', () => {
    for (let i = 0; i < 1000; i++) {
      const id = randomProducerId()
      expect(Number.isSafeInteger(id)).toBe(true)
      expect(id).toBeGreaterThanOrEqual(1)
    }
  })

  it('numbers each partition from 0 by record count', () => {
    const identity = new ProducerIdentity(() => 77)
    expect(identity.assign('t', 0, 3)).toEqual({ producerId: 77, producerEpoch: 0, baseSequence: 0 })
    expect(identity.assign('t', 0, 2).baseSequence).toBe(3)
    expect(identity.assign('t', 1, 1).baseSequence).toBe(0)
    expect(identity.assign('u', 0, 1).baseSequence).toBe(0)
  })

  it('wraps sequences at 2^31', () => {
    const identity = new ProducerIdentity(() => 5)
    identity.assign('t', 0, SEQUENCE_MODULUS - 2)
    expect(identity.assign('t', 0, 5).baseSequence).toBe(SEQUENCE_MODULUS - 2)
    expect(identity.assign('t', 0, 1).baseSequence).toBe(3)
  })

  it('gives back only the last assignment, and a reset starts a new producer at 0', () => {
    let next = 10
    const identity = new ProducerIdentity(() => next++)
    const first = identity.assign('t', 0, 4)
    const second = identity.assign('t', 0, 4)
    expect(identity.rollback('t', 0, first, 4)).toBe(false)
    expect(identity.rollback('t', 0, second, 4)).toBe(true)
    expect(identity.assign('t', 0, 1).baseSequence).toBe(4)
    identity.reset('t', 0)
    expect(identity.assign('t', 0, 1)).toEqual({ producerId: 11, producerEpoch: 0, baseSequence: 0 })
    expect(identity.assign('t', 1, 1).producerId).toBe(10)
  })
})
