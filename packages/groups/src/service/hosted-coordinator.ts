/**
 * The coordinator of one `__consumer_offsets` partition while this peer leads it, for one Raft
 * epoch. It loads the groups from the partition's log, then runs every request, timer tick and
 * metadata change through the GroupCoordinator in order, appends the records each produces
 * through the partition's Raft leader, and releases an output's responses only once every record
 * produced so far is committed (the coordinator's contract, coordinator/output.ts). A failed
 * append closes it: its memory is ahead of the log, so the service rebuilds a new one from the log.
 */
import type { HostedPartition, Logger } from '@tributary/mesh'
import { CoordinatorLoadInProgressError, NotCoordinatorError, NotLeaderOrFollowerError } from '@tributary/wire'
import type { CoordinatorComponents, CoordinatorOptions } from '../coordinator/config.js'
import { GroupCoordinator } from '../coordinator/coordinator.js'
import { type CoordinatorOutput, errorResponse } from '../coordinator/output.js'
import type { GroupRequest, GroupResponse } from '../protocol/messages.js'
import { encodeOffsetsBatch, readOffsetsLog } from './offsets-log.js'

export interface HostedCoordinatorOptions {
  components: CoordinatorComponents
  config: CoordinatorOptions
  /** Waiting for this epoch's first commit before loading, and each append's commit. */
  commitTimeoutMs: number
  logger: Logger
  /** Called once when this coordinator closes on its own (a failed load or append). */
  onFailed: (host: HostedCoordinator, err: unknown) => void
}

type HostState = 'loading' | 'ready' | 'closed'

interface Waiter {
  request: GroupRequest
  resolve: (response: GroupResponse) => void
}

/** Timers fire no sooner than this after the previous one, so a deadline that does not move cannot spin. */
const MIN_TICK_DELAY_MS = 10
const MAX_TIMER_MS = 2_147_483_647

export class HostedCoordinator {
  readonly epoch: number
  private state: HostState = 'loading'
  private coordinator: GroupCoordinator | undefined
  /** Settles once every record produced so far is committed; rejected after a failed append. */
  private durable: Promise<void> = Promise.resolve()
  private readonly waiters = new Map<string, Waiter[]>()
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly abort = new AbortController()
  private loaded: Promise<void> | undefined

  constructor(
    readonly hosted: HostedPartition,
    private readonly options: HostedCoordinatorOptions,
  ) {
    this.epoch = hosted.raft.epoch
  }

  get status(): HostState {
    return this.state
  }

  /** The coordinator itself, once loaded (for admin reads: describe, list, committed offsets). */
  get groups(): GroupCoordinator | undefined {
    return this.state === 'ready' ? this.coordinator : undefined
  }

  /** Rebuilds the groups from the log; resolves when ready (or closed meanwhile). Idempotent. */
  load(): Promise<void> {
    this.loaded ??= this.doLoad().catch((err: unknown) => this.fail(err))
    return this.loaded
  }

  private async doLoad(): Promise<void> {
    const { raft, log } = this.hosted
    const signal = this.abort.signal
    // Everything in a new leader's log is committed once this epoch's first batch (the
    // leader-change control batch) is: wait for that, so the read below sees all durable history.
    await raft.waitForCommit(Math.max(0, log.logEndOffset - 1), {
      epoch: this.epoch,
      timeoutMs: this.options.commitTimeoutMs,
      signal,
    })
    const records = await readOffsetsLog(log, log.highWatermark, signal)
    if (this.state !== 'loading') return
    const now = Date.now()
    this.coordinator = GroupCoordinator.recover(records, this.options.components, this.options.config, now)
    this.state = 'ready'
    this.options.logger.info(
      {
        partition: this.hosted.name,
        epoch: this.epoch,
        records: records.length,
        groups: this.coordinator.listGroups().length,
      },
      'group coordinator loaded',
    )
    this.apply(this.coordinator.topicsChanged(now))
  }

  /**
   * Runs one request; resolves with its answer once the records it caused are committed. A
   * JoinGroup answer waits for the rebalance to complete. Aborting `signal` only stops waiting.
   */
  handle(request: GroupRequest, signal: AbortSignal): Promise<GroupResponse> {
    if (this.state === 'loading') {
      return Promise.resolve(
        errorResponse(request, new CoordinatorLoadInProgressError(`${this.hosted.name} is loading its groups`)),
      )
    }
    const coordinator = this.coordinator
    if (this.state === 'closed' || coordinator === undefined) {
      return Promise.resolve(
        errorResponse(request, new NotCoordinatorError(`${this.hosted.name} moved; find it again`)),
      )
    }
    signal.throwIfAborted()
    return new Promise<GroupResponse>((resolve, reject) => {
      const key = waiterKey(request.groupId, request.sender, request.requestId)
      const waiter: Waiter = {
        request,
        resolve: (response) => {
          signal.removeEventListener('abort', onAbort)
          resolve(response)
        },
      }
      const onAbort = (): void => {
        this.removeWaiter(key, waiter)
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      const list = this.waiters.get(key)
      if (list === undefined) this.waiters.set(key, [waiter])
      else list.push(waiter)
      this.apply(coordinator.handle(request, Date.now()))
    })
  }

  /**
   * Runs an administrative change (delete a group, set its offsets) on the loaded coordinator;
   * resolves once its records are committed. Throws the coordinator's typed error, or
   * NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS when it cannot run here now.
   */
  async change(op: (coordinator: GroupCoordinator, now: number) => CoordinatorOutput): Promise<void> {
    if (this.state === 'loading') throw new CoordinatorLoadInProgressError(`${this.hosted.name} is loading its groups`)
    if (this.state === 'closed' || this.coordinator === undefined)
      throw new NotCoordinatorError(`${this.hosted.name} moved; find it again`)
    this.apply(op(this.coordinator, Date.now()))
    await this.durable
  }

  /** Metadata changed: groups assigned with other partition counts rebalance. */
  topicsChanged(): void {
    if (this.state === 'ready' && this.coordinator !== undefined) this.apply(this.coordinator.topicsChanged(Date.now()))
  }

  /** Stops for good: pending requests are answered NOT_COORDINATOR (members find the new one). */
  close(reason: string): void {
    if (this.state === 'closed') return
    this.state = 'closed'
    this.coordinator = undefined
    clearTimeout(this.timer)
    this.abort.abort(new NotLeaderOrFollowerError(`${this.hosted.name}: ${reason}`))
    const error = new NotCoordinatorError(`the coordinator of ${this.hosted.name} stopped: ${reason}`)
    const waiting = [...this.waiters.values()].flat()
    this.waiters.clear()
    for (const waiter of waiting) waiter.resolve(errorResponse(waiter.request, error))
  }

  private fail(err: unknown): void {
    if (this.state === 'closed') return
    this.options.logger.warn({ err, partition: this.hosted.name, epoch: this.epoch }, 'group coordinator failed')
    this.close(`failed: ${(err as Error)?.message ?? String(err)}`)
    this.options.onFailed(this, err)
  }

  private apply(output: CoordinatorOutput): void {
    for (const event of output.events)
      this.options.logger.debug({ partition: this.hosted.name, ...event }, 'group event')
    if (output.records.length > 0) {
      const records = output.records
      this.durable = this.durable.then(() => this.append(encodeOffsetsBatch(records)))
      this.durable.catch((err: unknown) => this.fail(err))
    }
    const responses = output.responses
    if (responses.length > 0) {
      this.durable.then(
        () => {
          for (const response of responses) this.deliver(response)
        },
        // A failed append closes the coordinator, which answers every waiter itself.
        () => {},
      )
    }
    this.schedule()
  }

  private async append(batch: Uint8Array): Promise<void> {
    if (this.state === 'closed') throw new NotCoordinatorError(`${this.hosted.name} coordinator closed`)
    const { raft } = this.hosted
    const signal = this.abort.signal
    const result = await raft.appendAsLeader(batch, { signal })
    this.hosted.notify()
    if (result.leaderEpoch !== this.epoch) {
      throw new NotLeaderOrFollowerError(`${this.hosted.name} moved to epoch ${result.leaderEpoch}`)
    }
    await raft.waitForCommit(result.lastOffset, { epoch: this.epoch, timeoutMs: this.options.commitTimeoutMs, signal })
  }

  private deliver(response: GroupResponse): void {
    const key = waiterKey(response.groupId, response.recipient, response.requestId)
    const list = this.waiters.get(key)
    const waiter = list?.shift()
    if (list !== undefined && list.length === 0) this.waiters.delete(key)
    // No waiter: the member gave up on that request (its stream closed); it will ask again.
    waiter?.resolve(response)
  }

  private removeWaiter(key: string, waiter: Waiter): void {
    const list = this.waiters.get(key)
    if (list === undefined) return
    const at = list.indexOf(waiter)
    if (at >= 0) list.splice(at, 1)
    if (list.length === 0) this.waiters.delete(key)
  }

  private schedule(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const next = this.coordinator?.nextDeadline()
    if (this.state !== 'ready' || next === undefined) return
    const delay = Math.min(MAX_TIMER_MS, Math.max(MIN_TICK_DELAY_MS, next - Date.now()))
    this.timer = setTimeout(() => {
      this.timer = undefined
      if (this.state === 'ready' && this.coordinator !== undefined) this.apply(this.coordinator.tick(Date.now()))
    }, delay)
    this.timer.unref?.()
  }
}

function waiterKey(groupId: string, sender: string, requestId: number): string {
  return `${groupId}\u0000${sender}\u0000${requestId}`
}
