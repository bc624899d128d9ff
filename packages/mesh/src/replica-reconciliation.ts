/**
 * Keeping the replicas a peer hosts in step with the cluster metadata: partition assignments
 * and topic changes are applied as gossip brings them, and replicas in storage of topics that
 * were deleted or re-created while the peer was away are removed at start.
 */
import type { Logger } from './logger.js'
import { type MetadataStore, PARTITION_KEY_PREFIX, TOPIC_KEY_PREFIX, type TopicRegistry } from './metadata/index.js'
import type { PartitionLogFactory } from './partitions/log-factory.js'
import type { PartitionManager } from './partitions/partition-manager.js'

/** Applies every assignment and topic change the metadata reports to `partitions`. */
export function followMetadata(
  store: MetadataStore,
  registry: TopicRegistry,
  partitions: PartitionManager,
  logger: Logger,
): void {
  store.onChange((key) => {
    if (!key.startsWith(PARTITION_KEY_PREFIX)) return
    // `partition/<topic>/<n>`; topic names have no '/'.
    const at = key.lastIndexOf('/')
    const topic = key.slice(PARTITION_KEY_PREFIX.length, at)
    const partition = Number(key.slice(at + 1))
    if (!Number.isSafeInteger(partition) || partition < 0) return
    partitions
      .applyAssignment(topic, partition)
      .catch((err: unknown) => logger.error({ err, topic, partition }, 'could not apply an assignment'))
  })
  registry.onTopicChange((change) => {
    const applied =
      change.type === 'deleted'
        ? partitions.removeTopic(change.previous.name, change.previous.topicId)
        : partitions.applyTopic(change.topic)
    applied.catch((err: unknown) => logger.error({ err, change: change.type }, 'could not apply a topic change'))
  })
}

/** Replicas in storage of topics that were deleted or re-created while this peer was away. */
export async function removeStaleReplicas(
  store: MetadataStore,
  registry: TopicRegistry,
  storage: PartitionLogFactory | undefined,
  logger: Logger,
): Promise<void> {
  const live = new Map(registry.listTopics().map((t) => [t.name, t.topicId]))
  const deleted = new Set(
    store
      .snapshot()
      .filter((e) => e.key.startsWith(TOPIC_KEY_PREFIX) && e.value === null)
      .map((e) => e.key.slice(TOPIC_KEY_PREFIX.length)),
  )
  if (storage === undefined) return
  for (const stored of await storage.stored()) {
    const liveId = live.get(stored.topic)
    if ((liveId !== undefined && liveId !== stored.topicId) || (liveId === undefined && deleted.has(stored.topic))) {
      await storage.remove(stored.topic, stored.partition)
      logger.info({ topic: stored.topic, partition: stored.partition }, 'removed a stale replica of a deleted topic')
    }
  }
}
