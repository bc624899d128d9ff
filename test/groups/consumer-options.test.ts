import { InvalidArgumentError } from '@tributary/client'
import { describe, expect, it } from 'vitest'
import { groupSettings } from '../../packages/client/src/consumer/group-options.ts'

describe('group consumer options', () => {
  it('has no group without groupId, and refuses group-only options then', () => {
    expect(groupSettings({})).toBeUndefined()
    expect(() => groupSettings({ groupInstanceId: 'a' })).toThrow(InvalidArgumentError)
    expect(() => groupSettings({ onPartitionsAssigned: () => {} })).toThrow(/needs a groupId/)
  })

  it("fills KafkaJS's and Kafka's defaults", () => {
    expect(groupSettings({ groupId: 'g' })).toMatchObject({
      groupId: 'g',
      groupInstanceId: undefined,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      rebalanceTimeout: 60_000,
      maxPollInterval: 300_000,
      partitionAssigners: ['cooperative-sticky'],
      autoCommit: true,
      autoCommitInterval: 5_000,
      autoCommitThreshold: undefined,
    })
  })

  it.each([
    [{ groupId: '' }, /groupId/],
    [{ groupId: 'x'.repeat(256) }, /groupId/],
    [{ groupId: 7 as unknown as string }, /groupId/],
    [{ groupId: 'g', groupInstanceId: 'has space' }, /groupInstanceId/],
    [{ groupId: 'g', sessionTimeout: 0 }, /sessionTimeout/],
    [{ groupId: 'g', sessionTimeout: 1.5 }, /sessionTimeout/],
    [{ groupId: 'g', heartbeatInterval: 30_000 }, /heartbeatInterval/],
    [{ groupId: 'g', rebalanceTimeout: 2 ** 31 }, /rebalanceTimeout/],
    [{ groupId: 'g', maxPollInterval: 0 }, /maxPollInterval/],
    [{ groupId: 'g', partitionAssigners: [] }, /partitionAssigners/],
    [{ groupId: 'g', partitionAssigners: ['sticky-ish'] }, /partitionAssigners/],
    [{ groupId: 'g', autoCommit: 'yes' as unknown as boolean }, /autoCommit/],
    [{ groupId: 'g', autoCommitInterval: -1 }, /autoCommitInterval/],
    [{ groupId: 'g', autoCommitThreshold: 0 }, /autoCommitThreshold/],
    [{ groupId: 'g', onPartitionsRevoked: 'no' as unknown as () => void }, /onPartitionsRevoked/],
  ])('refuses %o', (options, message) => {
    expect(() => groupSettings(options)).toThrow(InvalidArgumentError)
    expect(() => groupSettings(options)).toThrow(message)
  })
})
