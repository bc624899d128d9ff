import { InvalidConfigError, InvalidTopicError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { ObservedPartitions } from '../../src/partitions/observed-partitions.js'

function memory() {
  let saved: string | undefined
  return {
    persistence: {
      load: async () => saved,
      save: async (json: string) => {
        saved = json
      },
    },
    set: (json: string) => {
      saved = json
    },
  }
}

describe('partitions > observed partitions', () => {
  it('observes whole topics or listed partitions, and persists the set', async () => {
    const store = memory()
    const observed = new ObservedPartitions(store.persistence)
    await observed.add('orders', [0, 2])
    await observed.add('events')
    expect(observed.has('orders', 2)).toBe(true)
    expect(observed.has('orders', 1)).toBe(false)
    expect(observed.has('events', 9_999)).toBe(true)
    await observed.remove('orders', [0])
    const reloaded = new ObservedPartitions(store.persistence)
    await reloaded.load()
    expect(reloaded.list()).toEqual([
      { topic: 'orders', partitions: [2] },
      { topic: 'events', partitions: 'all' },
    ])
  })

  it('refuses bad names and partition numbers, and a damaged stored set', async () => {
    const observed = new ObservedPartitions()
    await expect(observed.add('bad name')).rejects.toBeInstanceOf(InvalidTopicError)
    await expect(observed.add('t', [-1])).rejects.toBeInstanceOf(InvalidConfigError)
    await expect(observed.add('t', [1.5])).rejects.toBeInstanceOf(InvalidConfigError)
    const store = memory()
    store.set('{not json')
    await expect(new ObservedPartitions(store.persistence).load()).rejects.toBeInstanceOf(InvalidConfigError)
    store.set('[{"topic":7}]')
    await expect(new ObservedPartitions(store.persistence).load()).rejects.toBeInstanceOf(InvalidConfigError)
  })

  it('a topic observed whole cannot lose single partitions', async () => {
    const observed = new ObservedPartitions()
    await observed.add('t')
    await expect(observed.remove('t', [1])).rejects.toBeInstanceOf(InvalidConfigError)
    await observed.remove('t')
    expect(observed.has('t', 1)).toBe(false)
  })
})
