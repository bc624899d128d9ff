import { MetadataRequest, MetadataResponse, type TopicInfo } from '@tributary/wire/pb/protocol'
import type { HandlerContext } from './context.js'
import { decodeRequest, InvalidRequestError } from './errors.js'

/**
 * `/tributary/metadata`: peers, and topics with each partition's leader, epoch and replicas; for the
 * partitions this peer leads, also their log start, high watermark and log end offsets.
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
          const log = hosted?.isLeader === true ? hosted.log : undefined
          return {
            partition,
            leader: leadership?.leader ?? '',
            leaderEpoch: leadership?.epoch ?? -1,
            replicas: [...replicas],
            inSync: leadership?.inSync ?? [],
            observers: [],
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
