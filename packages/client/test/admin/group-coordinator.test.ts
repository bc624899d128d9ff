/**
 * The admin's group requests after the coordinator's peer went away: a request that cannot reach
 * the cached coordinator forgets it, so the retry looks the leader of the group's
 * `__consumer_offsets` partition up again instead of dialing the dead peer until the metadata
 * ages out. (Against real peer processes: test/groups/scenario.test.ts.)
 */
import { CONSUMER_OFFSETS_TOPIC, type GroupAdminResponse } from '@tributary/groups'
import { NetworkError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { describeGroup } from '../../src/admin/groups.ts'
import type { Cluster } from '../../src/cluster/cluster.ts'

/** A metadata cache over a mesh whose offsets partitions are led by `leader` (which the test moves). */
function fakeCluster() {
  const mesh = { leader: 'old' }
  let cached: { leader: string } | undefined
  const dialed: string[] = []
  const answer: GroupAdminResponse = {
    errorCode: 0,
    errorMessage: '',
    coordinatorHint: undefined,
    groups: [],
    group: {
      groupId: 'billing',
      state: 'Stable',
      generation: 3,
      protocolType: 'consumer',
      protocol: 'cooperative-sticky',
      members: [],
      offsets: [],
    },
  }
  const cluster = {
    async topic(topic: string) {
      expect(topic).toBe(CONSUMER_OFFSETS_TOPIC)
      cached ??= { leader: mesh.leader }
      const leader = cached.leader
      return { name: topic, partitions: Array.from({ length: 50 }, (_, partition) => ({ partition, leader })) }
    },
    invalidate(topic: string) {
      if (topic === CONSUMER_OFFSETS_TOPIC) cached = undefined
    },
    broker(peer: string) {
      return {
        async groupAdmin() {
          dialed.push(peer)
          if (peer === 'old') throw new NetworkError('could not open /tributary/group-admin/1.0.0 to old')
          return answer
        },
      }
    },
  } as unknown as Cluster
  return { cluster, mesh, dialed }
}

describe('client > admin > group coordinator', () => {
  it('looks the coordinator up again after it could not be reached', async () => {
    const { cluster, mesh, dialed } = fakeCluster()
    await expect(describeGroup(cluster, 'billing', undefined)).rejects.toBeInstanceOf(NetworkError)
    mesh.leader = 'new' // the offsets partition elected a leader on another peer
    const group = await describeGroup(cluster, 'billing', undefined)
    expect(group.generation).toBe(3)
    expect(dialed).toEqual(['old', 'new'])
  })
})
