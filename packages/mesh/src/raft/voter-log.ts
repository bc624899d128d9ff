/**
 * Keeps a replica's voter set in step with its log. A VotersRecord takes effect as soon as it
 * is in the log (Raft dissertation §4.1), whoever appended it: the leader changing the set, or a
 * follower fetching the change. So every write to the Raft replica's log goes through
 * `trackVoterSets`, which tells the quorum state about voter sets appended and truncated away,
 * saving a write-ahead mark before an append that carries one (see PersistedVoterHistory).
 */
import type { AbortOptions, AppendResult, LeaderAppendOptions, PartitionLog } from '@tributary/log'
import { voterSetsIn } from './control-batch.js'
import type { VoterSet } from './voter-history.js'

const SCAN_READ_BYTES = 1024 * 1024

/** The voter sets recorded in `log` from offset `from` to its end. */
export async function scanVoterSets(log: PartitionLog, from: number, signal?: AbortSignal): Promise<VoterSet[]> {
  const sets: VoterSet[] = []
  let offset = Math.max(from, log.logStartOffset)
  const end = log.logEndOffset
  // Each read returns at least one batch and moves past it, so this ends at the log end.
  while (offset < end) {
    const read = await log.read(offset, { maxOffset: end, maxBytes: SCAN_READ_BYTES, signal })
    if (read.batchCount === 0 || read.nextOffset <= offset) break
    sets.push(...(await voterSetsIn(read.records)))
    offset = read.nextOffset
  }
  return sets
}

/** What the tracking log reports to (the quorum state). */
export interface VoterSetListener {
  beforeVoterAppend(logEnd: number): Promise<void>
  afterVoterAppend(sets: readonly VoterSet[]): Promise<void>
  logTruncated(logEnd: number): Promise<void>
  logRestarted(): Promise<void>
}

/**
 * `inner` as seen by the Raft replica: appends and truncations report the voter sets they add or
 * remove; every other member passes straight through. A proxy rather than a delegating class, so
 * the log contract can grow without this file having to follow it.
 */
export function trackVoterSets(inner: PartitionLog, listener: () => VoterSetListener): PartitionLog {
  const writes: Partial<PartitionLog> = {
    async appendAsLeader(batches: Uint8Array, leaderEpoch: number, options?: LeaderAppendOptions) {
      // Only the replication layer appends control batches; producers' batches never carry voter sets.
      if (options?.allowControl !== true) return inner.appendAsLeader(batches, leaderEpoch, options)
      const from = inner.logEndOffset
      const sets = await voterSetsIn(batches, from)
      if (sets.length === 0) return inner.appendAsLeader(batches, leaderEpoch, options)
      const l = listener()
      await l.beforeVoterAppend(from)
      let result: AppendResult
      try {
        result = await inner.appendAsLeader(batches, leaderEpoch, options)
      } catch (err) {
        await l.afterVoterAppend([])
        throw err
      }
      // Producer appends run outside the raft lock, so the log may have numbered ours later than
      // it stood when we looked: count from where it really went.
      const shift = result.firstOffset - from
      await l.afterVoterAppend(sets.map((s) => ({ offset: s.offset + shift, voters: s.voters })))
      return result
    },
    async appendAsFollower(batches: Uint8Array, options?: AbortOptions) {
      const sets = await voterSetsIn(batches)
      if (sets.length === 0) return inner.appendAsFollower(batches, options)
      const l = listener()
      await l.beforeVoterAppend(inner.logEndOffset)
      try {
        const result = await inner.appendAsFollower(batches, options)
        await l.afterVoterAppend(sets)
        return result
      } catch (err) {
        await l.afterVoterAppend([])
        throw err
      }
    },
    async truncateTo(offset: number, options?: AbortOptions) {
      await inner.truncateTo(offset, options)
      await listener().logTruncated(inner.logEndOffset)
    },
    async truncateFullyAndStartAt(offset: number, options?: AbortOptions) {
      await inner.truncateFullyAndStartAt(offset, options)
      await listener().logRestarted()
    },
  }
  const bound = new Map<PropertyKey, unknown>()
  return new Proxy(inner, {
    get(target, prop) {
      if (Object.hasOwn(writes, prop)) return writes[prop as keyof PartitionLog]
      // Read through the real log (getters and methods run on it, not on the proxy).
      const value: unknown = Reflect.get(target, prop, target)
      if (typeof value !== 'function') return value
      let fn = bound.get(prop)
      if (fn === undefined) {
        fn = (value as (...args: unknown[]) => unknown).bind(target)
        bound.set(prop, fn)
      }
      return fn
    },
  })
}
