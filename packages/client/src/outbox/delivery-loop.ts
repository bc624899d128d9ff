/**
 * When an outbox delivers: rounds (delivery.ts) until the outbox is empty, then sleep until the
 * next enqueue. A failed round backs off with jitter (KafkaJS's retry settings); the browser's
 * `online` event cuts a backoff short and its `offline` event stops a round at once. While the
 * browser is offline no round runs: queued records are sealed by known partition counts instead,
 * so the drain only sends once the network is back.
 */
import { nextRetryTime, type RetryOptions, randomizedRetryTime } from '../retry.js'
import type { OutboxDelivery } from './delivery.js'
import { BrowserOfflineError, browserOffline, onBrowserNetwork, unreachable } from './network.js'

/** While the browser is offline, queued records are sealed this often (by known partition counts). */
const OFFLINE_SEAL_INTERVAL_MS = 1_000
/** Chunks sealed in one offline pass (each at most 50,000 records): bounds a pass on a huge outbox. */
const OFFLINE_SEAL_MAX_CHUNKS = 20

type Wake = 'records' | 'online' | 'close'

export interface DeliveryLoopOptions {
  delivery: OutboxDelivery
  retry: Required<RetryOptions>
  /** Aborted when the producer closes: the loop ends. */
  lifetime: AbortSignal
  /** The mesh (or the browser's network) was found out of reach. */
  offline(error: Error): void
  /** A round failed; the next starts after `delayMs` (or sooner: see `sleep`). */
  retrying(error: Error, delayMs: number): void
}

export class DeliveryLoop {
  private round: AbortController | undefined
  private wake: ((why: Wake) => void) | undefined
  /** Records were queued since the current round began. */
  private recordsWaiting = false
  /** The browser came back online: the next failure backs off from the start again. */
  private backoffReset = false
  /**
   * The browser came back online since the current round (or offline pass) began: the next
   * sleep does not start. The event may fire while the loop is busy (an offline seal commit
   * takes a while on a big outbox); without this it would be lost, and the drain would wait out
   * the sleep that follows.
   */
  private onlineWaiting = false
  private running: Promise<void> = Promise.resolve()
  private readonly removeWindowListeners: () => void

  constructor(private readonly options: DeliveryLoopOptions) {
    this.removeWindowListeners = onBrowserNetwork({
      online: () => this.kick('online'),
      offline: (error) => {
        this.options.offline(error)
        this.round?.abort(error)
      },
    })
  }

  start(): void {
    this.running = this.loop()
  }

  /** New records end an idle wait. */
  recordsQueued(): void {
    this.kick('records')
  }

  /** Ends the loop (the lifetime signal must be aborted): a round in flight is abandoned with `reason`. */
  async stop(reason: Error): Promise<void> {
    this.round?.abort(reason)
    this.kick('close')
    this.removeWindowListeners()
    await this.running
  }

  /** Wakes the loop: new records end an idle wait; the browser coming online (or close) also ends a backoff. */
  private kick(why: Wake): void {
    if (why === 'records') this.recordsWaiting = true
    if (why === 'online') {
      this.backoffReset = true
      this.onlineWaiting = true
    }
    this.wake?.(why)
  }

  private async loop(): Promise<void> {
    const { retry, lifetime, delivery } = this.options
    let retryTime = randomizedRetryTime(retry.factor, retry.initialRetryTime)
    while (!lifetime.aborted) {
      if (browserOffline()) {
        // Nothing can be reached; the `online` event (or a periodic look) ends the wait. Meanwhile
        // what was queued is sealed by the partition counts known from earlier, so the drain only sends.
        this.options.offline(new BrowserOfflineError())
        await this.sealWhileOffline()
        await this.sleep(Math.min(retry.maxRetryTime, OFFLINE_SEAL_INTERVAL_MS), false)
        continue
      }
      this.recordsWaiting = false
      this.onlineWaiting = false
      const round = new AbortController()
      this.round = round
      let worked: boolean
      try {
        worked = await delivery.round(AbortSignal.any([round.signal, lifetime]))
        retryTime = randomizedRetryTime(retry.factor, retry.initialRetryTime)
      } catch (err) {
        if (lifetime.aborted) return
        if (this.backoffReset) retryTime = randomizedRetryTime(retry.factor, retry.initialRetryTime)
        this.backoffReset = false
        const error = err instanceof Error ? err : new Error(String(err))
        const delayMs = Math.min(retryTime, retry.maxRetryTime)
        const outOfReach = unreachable(error)
        if (outOfReach) this.options.offline(error)
        this.options.retrying(error, delayMs)
        // While the mesh answers (a topic not there yet, no leader yet), new records may go at once.
        await this.sleep(delayMs, !outOfReach)
        retryTime = nextRetryTime(retry, retryTime)
        continue
      } finally {
        this.round = undefined
      }
      if (!worked) await this.sleep(Number.POSITIVE_INFINITY, true)
    }
  }

  /** Seals queued records by known partition counts, a bounded chunk at a time, while the browser stays offline. */
  private async sealWhileOffline(): Promise<void> {
    const { delivery, lifetime } = this.options
    for (let chunk = 0; chunk < OFFLINE_SEAL_MAX_CHUNKS && browserOffline() && !lifetime.aborted; chunk++) {
      try {
        if (!(await delivery.sealFromKnownCounts())) return
      } catch (err) {
        // A store failure (a full quota) surfaces on the next round; the records stay queued.
        this.options.retrying(err instanceof Error ? err : new Error(String(err)), OFFLINE_SEAL_INTERVAL_MS)
        return
      }
    }
  }

  /**
   * Sleeps until `ms` pass, close, the browser's `online` event (also one that came while the
   * loop was busy), or — when `onRecords` (idle, not backing off: records queued while the mesh
   * is out of reach must not hasten retries) — an enqueue.
   */
  private sleep(ms: number, onRecords: boolean): Promise<void> {
    if (this.options.lifetime.aborted || this.onlineWaiting || (onRecords && this.recordsWaiting)) {
      this.onlineWaiting = false
      return Promise.resolve()
    }
    return new Promise<void>((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined
      const wake = (why: Wake): void => {
        if (why === 'records' && !onRecords) return
        done()
      }
      const self = this
      function done(): void {
        clearTimeout(timer)
        if (self.wake === wake) self.wake = undefined
        resolve()
      }
      this.wake = wake
    })
  }
}
