/**
 * The follower's side of replication (followers and observers alike): fetch from the leader
 * with the log's end offset and last epoch, append what comes back, take the leader's high
 * watermark capped at the own log end, and on a DivergingEpoch truncate to where the logs
 * agree and fetch again. An observer with no leader probes a random voter to find one.
 */
import { ErrorCode, iterateBatches, TributaryError } from '@tributary/wire'
import { sleep } from './clock.js'
import type { RaftCore } from './core.js'
import type { FollowerState } from './follower-state.js'
import { type ReplicaFetchRequest, type ReplicaFetchResponse, validateReplicaFetchResponse } from './messages.js'

/** Longest wait between fetches while the log keeps refusing to store (a full quota). */
const MAX_STORAGE_BACKOFF_MS = 5000

export class ReplicaFetcher {
  private running: FollowerState | undefined

  constructor(private readonly core: RaftCore) {}

  /** Starts the fetch loop for `state`; it ends by itself once the replica leaves that state. */
  start(state: FollowerState): void {
    if (this.running === state) return
    this.running = state
    this.run(state)
      .catch((err: unknown) => this.core.logger.warn({ partition: this.core.partition, err }, 'fetch loop failed'))
      .finally(() => {
        if (this.running === state) this.running = undefined
      })
  }

  /** An observer without a leader asks a random voter who leads. Locked (it only sends). */
  probe(voters: readonly string[]): void {
    const { core } = this
    const others = voters.filter((v) => v !== core.localId)
    const to = others[Math.floor(core.random() * others.length)]
    if (to === undefined) return
    const request = this.request(core.quorum.epoch, 0)
    core
      .request('fetch', core.config.requestTimeoutMs, (options) => core.transport.fetch(to, request, options))
      .then((raw) => {
        const response = validateReplicaFetchResponse(raw)
        return core.locked(() => core.observeLeader(response.leaderEpoch, response.leaderId))
      })
      .catch((err: unknown) => core.logger.debug({ partition: core.partition, to, err }, 'leader probe failed'))
  }

  private async run(state: FollowerState): Promise<void> {
    const { core } = this
    let wait = 0
    let storageFailures = 0
    // Ends when the replica stops or leaves this state; every pass waits on the network or a backoff.
    while (!core.stopped && core.quorum.state === state) {
      if (wait > 0) await sleep(core.clock, wait, undefined)
      const outcome = await this.fetchOnce(state).catch(() => false as const)
      storageFailures = outcome === 'storage' ? storageFailures + 1 : 0
      // A log that cannot store (a full browser quota) will not take the same records 50 ms later:
      // back off exponentially rather than fetch them again and again.
      wait =
        outcome === true
          ? 0
          : outcome === 'storage'
            ? Math.min(core.config.retryBackoffMs * 2 ** storageFailures, MAX_STORAGE_BACKOFF_MS)
            : core.config.retryBackoffMs
    }
  }

  /** One fetch round trip; false when the next should wait a backoff first, 'storage' when the log refused to store. */
  private async fetchOnce(state: FollowerState): Promise<boolean | 'storage'> {
    const { core } = this
    const request = await core.locked(() =>
      core.quorum.state === state ? this.request(state.epoch, core.config.fetchMaxWaitMs) : undefined,
    )
    if (request === undefined) return true
    let response: ReplicaFetchResponse
    try {
      const timeoutMs = core.config.fetchMaxWaitMs + core.config.requestTimeoutMs
      const raw = await core.request('fetch', timeoutMs, (o) => core.transport.fetch(state.leaderId, request, o))
      response = validateReplicaFetchResponse(raw)
    } catch (err) {
      core.logger.debug({ partition: core.partition, leader: state.leaderId, err }, 'fetch failed')
      return false
    }
    return core
      .locked(() => this.onResponse(state, request, response))
      .catch((err: unknown): false | 'storage' => {
        if (!core.stopped) core.logger.warn({ partition: core.partition, err }, 'applying a fetch response failed')
        return err instanceof TributaryError && err.code === ErrorCode.KAFKA_STORAGE_ERROR ? 'storage' : false
      })
  }

  /** A fetch from this replica's log end, as one literal (objects made by spreading are promoted by V8). */
  private request(epoch: number, maxWaitMs: number): ReplicaFetchRequest {
    const { core } = this
    return {
      partition: core.partition,
      replicaId: core.localId,
      currentLeaderEpoch: epoch,
      fetchOffset: core.log.logEndOffset,
      lastFetchedEpoch: core.log.latestEpoch(),
      maxBytes: core.config.fetchMaxBytes,
      maxWaitMs,
    }
  }

  /** Locked. Applies a fetch response; true when the next fetch may go at once. */
  private async onResponse(
    state: FollowerState,
    req: ReplicaFetchRequest,
    res: ReplicaFetchResponse,
  ): Promise<boolean> {
    const { core } = this
    const { log } = core
    if (res.leaderEpoch > state.epoch || res.errorCode === ErrorCode.FENCED_LEADER_EPOCH) {
      await core.observeLeader(res.leaderEpoch, res.leaderId)
      return false
    }
    if (core.quorum.state !== state) return true
    const fromLeader = res.leaderEpoch === state.epoch && res.leaderId === state.leaderId
    if (!fromLeader || (res.errorCode !== ErrorCode.NONE && res.errorCode !== ErrorCode.OFFSET_OUT_OF_RANGE)) {
      return false
    }
    // Our log moved since the request went out (a duplicate or late answer): ask again.
    if (log.logEndOffset !== req.fetchOffset || log.latestEpoch() !== req.lastFetchedEpoch) return true
    state.recordFetchSuccess(core.clock.now(), core.quorum.randomFetchTimeout())

    if (res.errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) return this.restartAt(res.logStartOffset)
    if (res.divergingEpoch !== undefined) return this.truncateDiverged(res.divergingEpoch)
    if (res.records.length > 0) {
      for (const { header } of iterateBatches(res.records)) {
        // A leader only holds batches of its own or earlier epochs.
        if (header.partitionLeaderEpoch > state.epoch) {
          core.logger.warn({ partition: core.partition, epoch: header.partitionLeaderEpoch }, 'batch from the future')
          return false
        }
      }
      await log.appendAsFollower(res.records)
    }
    core.followerHighWatermark(Math.min(res.highWatermark, log.logEndOffset))
    return true
  }

  /** The leader no longer holds our fetch offset (retention moved its start): start over there. */
  private async restartAt(leaderLogStart: number): Promise<boolean> {
    const { log, logger, partition } = this.core
    if (leaderLogStart <= log.logEndOffset && log.latestEpoch() >= 0) {
      logger.warn({ partition, leaderLogStart, logEndOffset: log.logEndOffset }, 'unexpected out-of-range fetch')
      return false
    }
    logger.info({ partition, leaderLogStart }, 'restarting the log at the leader log start')
    await log.truncateFullyAndStartAt(leaderLogStart)
    return true
  }

  /** KIP-595: truncate to the end of the largest epoch both logs share, then fetch again. */
  private async truncateDiverged(diverging: { epoch: number; endOffset: number }): Promise<boolean> {
    const { log, logger, partition } = this.core
    const own = log.endOffsetForEpoch(diverging.epoch)
    const target =
      diverging.epoch < 0 || own.epoch < 0 ? log.logStartOffset : Math.min(diverging.endOffset, own.endOffset)
    if (target < log.highWatermark) {
      // Committed records never diverge; refusing keeps them, and the error says a safety rule broke.
      logger.error({ partition, target, highWatermark: log.highWatermark, diverging }, 'divergence below the HW')
      return false
    }
    logger.info({ partition, logEndOffset: log.logEndOffset, target, diverging }, 'truncating a diverged log')
    await log.truncateTo(target)
    return true
  }
}
