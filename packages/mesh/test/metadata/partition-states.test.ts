import { describe, expect, it } from 'vitest'
import { MetadataStore } from '../../src/metadata/metadata-store.js'
import { PartitionStates, partitionKey } from '../../src/metadata/partition-states.js'

const view = (epoch: number, leader = 'peer-a') => ({
  topic: 'orders',
  partition: 2,
  topicId: 'ab'.repeat(16),
  leader,
  leaderEpoch: epoch,
  voters: ['peer-a', 'peer-b', 'peer-c'],
  votersOffset: -1,
  inSync: ['peer-a', 'peer-b'],
  observers: [],
  highWatermark: 10,
  logEndOffset: 12,
})

describe('mesh > metadata > partition states', () => {
  it('publishes leadership and reads it back, only writing real changes', () => {
    const store = new MetadataStore({ peerId: 'peer-a' })
    const states = new PartitionStates(store)
    expect(states.publish(view(3))).toBe(true)
    expect(states.get('orders', 2)).toMatchObject({ leader: 'peer-a', leaderEpoch: 3, inSync: ['peer-a', 'peer-b'] })
    // Offsets alone move constantly; they do not cause gossip.
    expect(states.publish({ ...view(3), highWatermark: 11 })).toBe(false)
    expect(states.publish({ ...view(4, 'peer-b') })).toBe(true)
    expect(states.publish(view(3))).toBe(false)
    expect(states.get('orders', 2)?.leader).toBe('peer-b')
  })

  it('keeps the newest committed voter set: a new leader that knows an older one does not undo a replacement', () => {
    const store = new MetadataStore({ peerId: 'peer-a' })
    const states = new PartitionStates(store)
    const replaced = { ...view(3), voters: ['peer-a', 'peer-d', 'peer-c'], votersOffset: 40 }
    expect(states.publish(replaced)).toBe(true)
    expect(states.publish({ ...view(4, 'peer-c'), votersOffset: 12 })).toBe(true)
    expect(states.get('orders', 2)).toMatchObject({ leader: 'peer-c', leaderEpoch: 4, ...pick(replaced) })
    expect(states.publish({ ...view(4, 'peer-c'), voters: ['peer-a', 'peer-d', 'peer-e'], votersOffset: 55 })).toBe(
      true,
    )
    expect(states.get('orders', 2)).toMatchObject({ voters: ['peer-a', 'peer-d', 'peer-e'], votersOffset: 55 })
  })

  it('spreads to another store and ignores records that do not decode', () => {
    const a = new MetadataStore({ peerId: 'peer-a' })
    const b = new MetadataStore({ peerId: 'peer-b' })
    new PartitionStates(a).publish(view(1))
    b.mergeSnapshot(a.snapshot())
    expect(new PartitionStates(b).get('orders', 2)?.leaderEpoch).toBe(1)
    b.set(partitionKey('orders', 3), new Uint8Array([0xff, 0xff, 0xff]))
    expect(new PartitionStates(b).get('orders', 3)).toBeUndefined()
  })

  it('forgets the partitions of a deleted topic', () => {
    const store = new MetadataStore({ peerId: 'peer-a' })
    const states = new PartitionStates(store)
    states.publish(view(1))
    states.forget('orders', 3)
    expect(states.get('orders', 2)).toBeUndefined()
  })
})

function pick(v: { voters: string[]; votersOffset: number }) {
  return { voters: v.voters, votersOffset: v.votersOffset }
}
