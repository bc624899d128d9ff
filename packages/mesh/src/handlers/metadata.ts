import { MetadataRequest, MetadataResponse, type ReplicaState, type TopicInfo } from '@tributary/wire/pb/protocol'
import type { ReplicaProgress } from '../raft/index.js'
import type { HandlerContext } from './context.js'
import { decodeRequest, InvalidRequestError } from './errors.js'

/**
 * `/tributary/metadata`: peers, and topics with each partition's leader, epoch and replicas; for the
 * partitions this peer leads, also their log start, high watermark and log end offsets, the
 * observers fetching from it, and how far each other replica has got.
 */
export function metadataHandler(ctx: HandlerContext) {
  return async (bytes: Uint8Array): Promise<Uint8Array> => {
    const request = decodeRequest('metadata', () => MetadataRequest.decode(bytes))
    if (request.topics.length > 10_000) throw new InvalidRequestError('metadata names at most 10,000 topics')
    const known = new Map(ctx.topics().map((t) => [t.name, t]))
    const names = request.allTopics || request.topics.length === 0 ? [...known.keys()].sort() : request.topics
    const topics: TopicInfo[] = names.map((name) => {
      const view = known.get(name)
      if (view === undefined) {
        return {
          name,
          topicId: '',
          errorCode: 3,
          errorMessage: `topic ${name} does not exist`,
          replicationFactor: 0,
          configs: new Map(),
          partitions: [],
        }
      }
      return {
        name,
        topicId: view.topicId,
        errorCode: 0,
        errorMessage: '',
        replicationFactor: view.replicationFactor,
        configs: new Map(Object.entries(view.configs)),
        partitions: view.replicas.map((replicas, partition) => {
          const leadership = ctx.leaderOf(name, partition)
          // Only the leader's own positions are current; other peers answer -1 rather than a stale guess.
          const hosted = ctx.partitions.get(name, partition)
          const leading = hosted?.isLeader === true ? hosted : undefined
          const log = leading?.log
          const replicaStates = leading === undefined ? [] : replicaStatesOf(leading.raft.replicaProgress())
          return {
            partition,
            leader: leadership?.leader ?? '',
            leaderEpoch: leadership?.epoch ?? -1,
            replicas: [...replicas],
            inSync: leadership?.inSync ?? [],
            observers: replicaStates.filter((r) => !r.voter).map((r) => r.peerId),
            replicaStates,
            logStartOffset: BigInt(log?.logStartOffset ?? -1),
            highWatermark: BigInt(log?.highWatermark ?? -1),
            logEndOffset: BigInt(log?.logEndOffset ?? -1),
          }
        }),
      }
    })
    const peers = ctx.members().map((m) => ({ ...m }))
    return MetadataResponse.encode({ peers, topics, peerId: ctx.peerId })
  }
}

/** The leader's view of the other replicas, in wire form (times relative, so clocks need not agree). */
function replicaStatesOf(progress: readonly ReplicaProgress[]): ReplicaState[] {
  const now = Date.now()
  return progress.map((r) => ({
    peerId: r.id,
    voter: r.voter,
    logEndOffset: BigInt(r.endOffset),
    caughtUpMsAgo: BigInt(Number.isFinite(r.lastCaughtUpAt) ? Math.max(0, now - r.lastCaughtUpAt) : -1),
  }))
}
