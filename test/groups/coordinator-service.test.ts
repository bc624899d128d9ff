/**
 * The group coordinator hosted in peers: real peers on loopback (in-memory logs), the group
 * service on each, and GroupMembers driven over `/tributary/group/1.0.0` from a non-voting peer.
 * Join, sync, heartbeats, commits and offset fetches go through the `__consumer_offsets` leader;
 * stopping that peer moves the coordinator, and the new one rebuilds the group from the log.
 */
import {
  CONSUMER_OFFSETS_TOPIC,
  coordinatorPartitionFor,
  decodeGroupResponse,
  encodeGroupRequest,
  type TopicPartition,
} from '@tributary/groups'
import { GroupService } from '@tributary/groups/service'
import { createPeer, type Peer, PROTOCOLS } from '@tributary/mesh'
import { RpcClient } from '@tributary/mesh/rpc'
import { ErrorCode, InvalidRequestError } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { WireMember } from './wire-member.ts'

const GROUP = 'billing'
const MEMBER = {
  groupId: GROUP,
  topics: ['orders'],
  sessionTimeoutMs: 4_000,
  heartbeatIntervalMs: 300,
  rebalanceTimeoutMs: 8_000,
  requestTimeoutMs: 10_000,
  retryBackoffMs: 100,
}

interface Cluster {
  voters: Peer[]
  services: Map<Peer, GroupService>
  client: Peer
  members: WireMember[]
  member(): WireMember
  stop(): Promise<void>
}

let cluster: Cluster | undefined

afterEach(async () => {
  await cluster?.stop()
  cluster = undefined
})

async function startCluster(size: number): Promise<Cluster> {
  const peers: Peer[] = []
  const services = new Map<Peer, GroupService>()
  const members: WireMember[] = []
  const options = { tcpPort: 0, wsPort: false as const, heartbeatIntervalMs: 200, failureTimeoutMs: 2000 }
  const stop = async (): Promise<void> => {
    await Promise.allSettled(members.map((m) => m.stop(false)))
    await Promise.allSettled([...services.values()].map((s) => s.stop()))
    await Promise.allSettled(peers.map((p) => p.stop()))
  }
  try {
    const seed = await createPeer(options)
    peers.push(seed)
    for (let i = 1; i < size; i++) peers.push(await createPeer({ ...options, bootstrap: seed.addresses() }))
    const client = await createPeer({ ...options, voter: false, bootstrap: seed.addresses() })
    peers.push(client)
    const voters = peers.slice(0, size)
    for (const peer of peers) {
      await waitFor(() => peer.voters().length === size, `${peer.peerId.slice(-6)} to see ${size} voters`)
    }
    for (const peer of voters) {
      services.set(
        peer,
        await GroupService.start(peer, { coordinator: { initialRebalanceDelayMs: 0, minSessionTimeoutMs: 500 } }),
      )
    }
    await seed.createTopic({ name: 'orders', partitions: 6, replicationFactor: 3, configs: {} })
    const candidates = voters.map((p) => ({ id: p.peerId, peerId: p.node.peerId }))
    const member = (): WireMember => {
      const m = new WireMember(client.node, candidates, MEMBER)
      members.push(m)
      return m
    }
    return { voters, services, client, members, member, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

const keys = (tps: TopicPartition[]): string[] => tps.map((tp) => `${tp.topic}-${tp.partition}`).sort()

/** The peer whose service coordinates GROUP now, once its coordinator is loaded. */
function coordinatorPeer(c: Cluster): Peer | undefined {
  return c.voters.find((p) => c.services.get(p)?.coordinatorOf(GROUP)?.groups !== undefined)
}

describe('group coordinator in peers', () => {
  it('creates __consumer_offsets on demand, compacted, with Kafka partition numbering', async () => {
    cluster = await startCluster(3)
    const c = cluster
    const a = c.member()
    a.start()
    const topic = await waitFor(() => c.voters[1]!.partitions.topic(CONSUMER_OFFSETS_TOPIC), 'the offsets topic')
    expect(topic.partitions).toBe(50)
    expect(topic.replicationFactor).toBe(3)
    expect(topic.configs['cleanup.policy']).toBe('compact')
    const coordinator = await waitFor(() => coordinatorPeer(c), 'a loaded coordinator')
    expect(coordinator.leaderOf(CONSUMER_OFFSETS_TOPIC, coordinatorPartitionFor(GROUP))?.leader).toBe(
      coordinator.peerId,
    )
    await waitFor(() => a.member.assignment.length === 6, 'the first member to own all 6 partitions')
  }, 60_000)

  it('joins, syncs, heartbeats, commits and fetches offsets over the wire; a failover keeps them', async () => {
    cluster = await startCluster(3)
    const c = cluster
    const a = c.member()
    const b = c.member()
    a.start()
    await waitFor(() => a.member.assignment.length === 6, 'a to own all partitions')
    b.start()
    await waitFor(
      () =>
        a.member.state === 'stable' &&
        b.member.state === 'stable' &&
        a.member.assignment.length === 3 &&
        b.member.assignment.length === 3,
      'a and b to share the partitions',
    )
    expect([...keys(a.member.assignment), ...keys(b.member.assignment)].sort()).toEqual(
      keys([0, 1, 2, 3, 4, 5].map((partition) => ({ topic: 'orders', partition }))),
    )

    // Heartbeats keep both in the same generation.
    const generation = a.member.currentGeneration
    const beats = (m: WireMember): number =>
      m.responses.filter((r) => r.kind === 'heartbeat' && r.errorCode === 0).length
    const before = beats(a)
    await waitFor(() => beats(a) >= before + 3 && beats(b) >= 3, 'three answered heartbeats')
    expect(a.member.currentGeneration).toBe(generation)
    expect(b.member.currentGeneration).toBe(generation)

    const committed = [...a.member.assignment, ...b.member.assignment].map((tp) => ({
      ...tp,
      offset: 100 + tp.partition,
    }))
    const owners = new Map<WireMember, typeof committed>([
      [a, committed.filter((o) => a.member.assignment.some((tp) => tp.partition === o.partition))],
      [b, committed.filter((o) => b.member.assignment.some((tp) => tp.partition === o.partition))],
    ])
    for (const [m, offsets] of owners) {
      const id = m.commit(offsets)
      const done = await waitFor(
        () => m.events.find((e) => e.type === 'committed' && e.requestId === id),
        'a commit answer',
      )
      expect(done.type === 'committed' && done.error).toBeUndefined()
      expect(done.type === 'committed' && done.results.every((r) => r.errorCode === 0)).toBe(true)
    }
    const fetched = async (m: WireMember): Promise<Array<[number, number]>> => {
      const id = m.fetchOffsets()
      const answer = await waitFor(() => m.events.find((e) => e.type === 'offsets' && e.requestId === id), 'offsets')
      if (answer.type !== 'offsets' || answer.error !== undefined) throw new Error('offset fetch failed')
      return answer.offsets.map((o) => [o.partition, o.offset] as [number, number]).sort((x, y) => x[0] - y[0])
    }
    const expected = [0, 1, 2, 3, 4, 5].map((p) => [p, 100 + p] as [number, number])
    expect(await fetched(a)).toEqual(expected)

    // The coordinator's peer goes away: another voter leads the partition and recovers the group.
    const old = await waitFor(() => coordinatorPeer(c), 'the coordinator')
    await c.services.get(old)!.stop()
    c.services.delete(old)
    await old.stop()
    c.voters.splice(c.voters.indexOf(old), 1)
    const next = await waitFor(() => coordinatorPeer(c), 'a new coordinator', 30_000)
    expect(next.peerId).not.toBe(old.peerId)
    const recovered = c.services.get(next)!.coordinatorOf(GROUP)!.groups!
    expect(
      recovered
        .committedOffsets(GROUP)
        .map((o) => [o.partition, o.offset])
        .sort((x, y) => x[0]! - y[0]!),
    ).toEqual(expected)
    // A member still in the group finds the new coordinator and reads the same offsets from it.
    const survivor = b
    await waitFor(
      async () => {
        try {
          return JSON.stringify(await fetched(survivor)) === JSON.stringify(expected)
        } catch {
          return false
        }
      },
      'offsets from the new coordinator',
      30_000,
    )
    // The group itself came back: the survivor's heartbeats are accepted by the new coordinator.
    const described = recovered.describeGroup(GROUP)
    expect(described?.members.map((m) => m.memberId)).toContain(survivor.member.id)
    const afterFailover = beats(survivor)
    await waitFor(() => beats(survivor) >= afterFailover + 2, 'heartbeats answered by the new coordinator', 30_000)
  }, 120_000)

  it('answers NOT_COORDINATOR with the leader as a hint elsewhere, and refuses malformed requests', async () => {
    cluster = await startCluster(3)
    const c = cluster
    const a = c.member()
    a.start()
    const coordinator = await waitFor(() => coordinatorPeer(c), 'a loaded coordinator')
    await waitFor(() => a.member.assignment.length === 6, 'a to own all partitions')
    const other = c.voters.find((p) => p !== coordinator)!
    const rpc = new RpcClient(c.client.node, other.node.peerId, PROTOCOLS.group, { requestTimeoutMs: 10_000 })
    try {
      const fetch = { groupId: GROUP, sender: 'probe', requestId: 1, kind: 'fetch' as const, partitions: undefined }
      const answer = decodeGroupResponse(await rpc.request(encodeGroupRequest(fetch)))
      expect(answer.errorCode).toBe(ErrorCode.NOT_COORDINATOR)
      expect(answer.coordinatorHint).toBe(coordinator.peerId)
      expect(answer).toMatchObject({ kind: 'fetch', recipient: 'probe', requestId: 1, offsets: [] })
      await expect(rpc.request(new Uint8Array([0xff, 0xff, 0xff]))).rejects.toBeInstanceOf(InvalidRequestError)
      // A well-formed message with a bad version is refused the same way.
      const wrong = encodeGroupRequest(fetch)
      await expect(rpc.request(Uint8Array.of(0x08, 0x02, ...wrong.subarray(2)))).rejects.toBeInstanceOf(
        InvalidRequestError,
      )
    } finally {
      await rpc.close()
    }
    // Nothing changed for the member in the group.
    expect(a.member.state).toBe('stable')
    expect(a.member.assignment.length).toBe(6)
  }, 60_000)
})
