import { PartitionState } from '@tributary/wire/pb/partition-state'
import { type Logger, silentLogger } from '../logger.js'
import type { Entry } from './entry.js'
import type { MetadataStore } from './metadata-store.js'

export const PARTITION_KEY_PREFIX = 'partition/'
const MAX_REPLICAS = 255
const MAX_ID_LENGTH = 256

/** Where one partition's Raft group stands, as its leader last published it. */
export interface PartitionStateView {
  topic: string
  partition: number
  topicId: string
  leader: string
  leaderEpoch: number
  /** The committed voter set, preferred leader first: the partition's replica list. */
  voters: string[]
  /** Offset of the VotersRecord that made `voters` the set (-1: the topic's placement). */
  votersOffset: number
  inSync: string[]
  /** Replicas that must host the partition without being committed voters (learners, voters being added). */
  observers: string[]
  highWatermark: number
  logEndOffset: number
}

export function partitionKey(topic: string, partition: number): string {
  return `${PARTITION_KEY_PREFIX}${topic}/${partition}`
}

/**
 * Partition leadership in the gossiped metadata map: each leader publishes its partition's
 * leader, epoch, voters and in-sync set when they change, so any peer can answer a client's
 * metadata request. Last-writer-wins can briefly prefer a deposed leader's late write; readers
 * take the record as a hint and, among records they see, never go back to a lower epoch.
 *
 * The voter set is the exception to "a hint": it is the leader's *committed* set, with the offset
 * of its VotersRecord, and it overrides the topic's placement as the partition's replica list
 * once a voter has been replaced. Committed sets are ordered by that offset, so a publisher
 * never replaces a newer set with an older one (a new leader may not know yet how far the last
 * one committed), and peers decide from it which replicas to host and which to delete.
 */
export class PartitionStates {
  private readonly decoded = new WeakMap<Entry, PartitionStateView | null>()
  private readonly logger: Logger

  constructor(
    private readonly store: MetadataStore,
    options: { logger?: Logger } = {},
  ) {
    this.logger = options.logger ?? silentLogger
  }

  /** Writes the state if it differs from what the map holds (and is not older). */
  publish(view: PartitionStateView): boolean {
    const current = this.get(view.topic, view.partition)
    let next = view
    if (current !== undefined && current.topicId === view.topicId) {
      if (current.leaderEpoch > view.leaderEpoch) return false
      if (current.votersOffset > view.votersOffset) {
        next = { ...view, voters: current.voters, votersOffset: current.votersOffset }
      }
      if (sameState(current, next)) return false
    }
    this.write(next)
    return true
  }

  private write(view: PartitionStateView): void {
    this.store.set(
      partitionKey(view.topic, view.partition),
      PartitionState.encode({
        topicId: view.topicId,
        leader: view.leader,
        leaderEpoch: view.leaderEpoch,
        voters: view.voters,
        votersOffset: view.votersOffset,
        inSync: view.inSync,
        observers: view.observers,
        highWatermark: view.highWatermark,
        logEndOffset: view.logEndOffset,
      }),
    )
  }

  get(topic: string, partition: number): PartitionStateView | undefined {
    const entry = this.store.get(partitionKey(topic, partition))
    if (entry === undefined || entry.value === null) return undefined
    let view = this.decoded.get(entry)
    if (view === undefined) {
      view = decodeState(topic, partition, entry.value, this.logger)
      this.decoded.set(entry, view)
    }
    return view ?? undefined
  }

  /** Drops the records of a deleted topic's partitions. */
  forget(topic: string, partitions: number): void {
    for (let p = 0; p < partitions; p++) {
      if (this.store.get(partitionKey(topic, p))?.value != null) this.store.delete(partitionKey(topic, p))
    }
  }
}

function sameState(a: PartitionStateView, b: PartitionStateView): boolean {
  return (
    a.leader === b.leader &&
    a.leaderEpoch === b.leaderEpoch &&
    a.voters.join() === b.voters.join() &&
    a.votersOffset === b.votersOffset &&
    a.inSync.join() === b.inSync.join() &&
    a.observers.join() === b.observers.join()
  )
}

function decodeState(topic: string, partition: number, bytes: Uint8Array, logger: Logger): PartitionStateView | null {
  try {
    const s = PartitionState.decode(bytes, {
      limits: { voters: MAX_REPLICAS, inSync: MAX_REPLICAS, observers: MAX_REPLICAS },
    })
    const ids = [s.leader, ...s.voters, ...s.inSync, ...s.observers]
    const votersOffset = s.votersOffset ?? -1
    if (
      ids.some((id) => id.length === 0 || id.length > MAX_ID_LENGTH) ||
      new Set(s.voters).size !== s.voters.length ||
      !Number.isSafeInteger(s.highWatermark) ||
      !Number.isSafeInteger(s.logEndOffset) ||
      !Number.isSafeInteger(votersOffset) ||
      votersOffset < -1
    ) {
      throw new Error('field out of bounds')
    }
    return { topic, partition, ...s, votersOffset }
  } catch (err) {
    logger.warn({ topic, partition, err }, 'ignored an invalid partition state record')
    return null
  }
}
