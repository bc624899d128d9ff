/**
 * Partition-level admin reads that need each partition's leader: offsets (ListOffsets, grouped
 * per leader) and the leaders' own log positions (a metadata request to each leader, which fills
 * them in for the partitions it leads).
 */
import type { PartitionMetadata, TopicMetadata } from '../broker.js'
import type { Cluster } from '../cluster/cluster.js'

export interface DescribedPartition {
  partition: number
  /** Peer id of the leader ('' while there is none). */
  leader: string
  leaderEpoch: number
  voters: string[]
  observers: string[]
  inSyncVoters: string[]
  /** Offsets as the leader reports them; '-1' when the leader did not answer. */
  logStartOffset: string
  highWatermark: string
  logEndOffset: string
  /** Every replica but the leader, as the leader sees it: empty when the leader did not answer. */
  replicas: DescribedReplica[]
}

export interface DescribedReplica {
  peerId: string
  voter: boolean
  /** Its log end offset at its last fetch ('-1': none yet in this epoch). */
  logEndOffset: string
  /** Records it is behind the leader's log end ('-1' when unknown). */
  lag: string
  /** Milliseconds since it was last caught up (-1: not in this leader's epoch). */
  caughtUpMsAgo: number
}

export interface DescribedTopic {
  name: string
  topicId: string
  replicationFactor: number
  configs: Record<string, string>
  partitions: DescribedPartition[]
}

/** Offsets of `partitions` of `topic` for one ListOffsets timestamp (-2 earliest, -1 latest, else a time). */
export async function fetchOffsets(
  cluster: Cluster,
  topic: string,
  partitions: number[],
  timestamp: number,
  signal: AbortSignal | undefined,
): Promise<Array<{ partition: number; offset: number }>> {
  const byLeader = new Map<string, number[]>()
  for (const partition of partitions) {
    const { leader } = await cluster.leader(topic, partition, signal === undefined ? {} : { signal })
    const list = byLeader.get(leader)
    if (list === undefined) byLeader.set(leader, [partition])
    else list.push(partition)
  }
  const found = new Map<number, number>()
  await Promise.all(
    [...byLeader].map(async ([leader, list]) => {
      let answers: Awaited<ReturnType<ReturnType<Cluster['broker']>['listOffsets']>>
      try {
        answers = await cluster.broker(leader).listOffsets(
          list.map((partition) => ({ topic, partition, timestamp })),
          signal === undefined ? {} : { signal },
        )
      } catch (err) {
        for (const partition of list) cluster.onPartitionError(topic, partition, err)
        throw err
      }
      for (const answer of answers) {
        if (answer.error !== undefined) {
          cluster.onPartitionError(topic, answer.partition, answer.error)
          throw answer.error
        }
        found.set(answer.partition, answer.offset)
      }
    }),
  )
  return partitions.map((partition) => ({ partition, offset: found.get(partition) ?? -1 }))
}

export async function describeTopics(
  cluster: Cluster,
  topics: TopicMetadata[],
  signal: AbortSignal | undefined,
): Promise<DescribedTopic[]> {
  const byLeader = new Map<string, Set<string>>()
  for (const topic of topics) {
    for (const p of topic.partitions) {
      if (p.leader === '') continue
      let names = byLeader.get(p.leader)
      if (names === undefined) {
        names = new Set()
        byLeader.set(p.leader, names)
      }
      names.add(topic.name)
    }
  }
  // partition key → the offsets its leader reported
  const positions = new Map<
    string,
    Pick<PartitionMetadata, 'logStartOffset' | 'highWatermark' | 'logEndOffset' | 'replicaStates'>
  >()
  await Promise.all(
    [...byLeader].map(async ([leader, names]) => {
      try {
        const answer = await cluster.broker(leader).metadata([...names], signal === undefined ? {} : { signal })
        for (const t of answer.topics) {
          for (const p of t.partitions) {
            if (p.highWatermark >= 0 && p.leader === leader) positions.set(`${t.name}\u0000${p.partition}`, p)
          }
        }
      } catch {
        // A leader that does not answer leaves its partitions' offsets unknown ('-1'); the rest still describe.
      }
    }),
  )
  return topics.map((t) => ({
    name: t.name,
    topicId: t.topicId,
    replicationFactor: t.replicationFactor,
    configs: { ...t.configs },
    partitions: t.partitions.map((p) => {
      const at = positions.get(`${t.name}\u0000${p.partition}`)
      return {
        partition: p.partition,
        leader: p.leader,
        leaderEpoch: p.leaderEpoch,
        voters: [...p.replicas],
        observers: [...p.observers],
        inSyncVoters: [...p.inSync],
        logStartOffset: String(at?.logStartOffset ?? -1),
        highWatermark: String(at?.highWatermark ?? -1),
        logEndOffset: String(at?.logEndOffset ?? -1),
        replicas: (at?.replicaStates ?? []).map((r) => ({
          peerId: r.peerId,
          voter: r.voter,
          logEndOffset: String(r.logEndOffset),
          lag: at === undefined || r.logEndOffset < 0 ? '-1' : String(Math.max(0, at.logEndOffset - r.logEndOffset)),
          caughtUpMsAgo: r.caughtUpMsAgo,
        })),
      }
    }),
  }))
}
