/**
 * When a log flushes (Kafka's `flush.messages` and `flush.ms`): right after an append once
 * enough records or time accumulated unflushed, and from a timer while records wait. A flush
 * syncs the store and checkpoints the high watermark with it.
 */
import type { LogConfig } from './config.js'
import { META_HIGH_WATERMARK } from './log-loader.js'
import type { Logger } from './logger.js'
import type { AbortOptions, LogStore } from './types.js'

export interface FlushPolicyInit {
  name: string
  store: LogStore
  logger: Logger
  clock: () => number
  /** The log's current settings (they change with `updateConfig`). */
  config: () => LogConfig
  highWatermark: () => number
  closed: () => boolean
  /** The log's own flush, queued behind its other changes; what the timer calls. */
  flush: () => Promise<void>
}

export class FlushPolicy {
  private unflushedRecords = 0
  private lastFlushMs = 0
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(private readonly init: FlushPolicyInit) {}

  /** The log opened at `now`: time since the last flush counts from here, and the timer starts. */
  opened(now: number): void {
    this.lastFlushMs = now
    if (Number.isFinite(this.init.config().flushMs)) this.startTimer()
  }

  /** The flush settings may have changed: the timer follows them. */
  reconfigured(): void {
    this.stop()
    if (Number.isFinite(this.init.config().flushMs) && !this.init.closed()) this.startTimer()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Counts `records` appended at `now`; true when flush.messages or flush.ms says to flush now. */
  appended(records: number, now: number): boolean {
    this.unflushedRecords += records
    const config = this.init.config()
    return this.unflushedRecords >= config.flushMessages || now - this.lastFlushMs >= config.flushMs
  }

  /** Syncs the store and checkpoints the high watermark. Runs under the log's write queue. */
  async flushNow(options: AbortOptions): Promise<void> {
    const { store } = this.init
    await store.flush(options)
    await store.writeMeta({ [META_HIGH_WATERMARK]: String(this.init.highWatermark()) }, options)
    this.unflushedRecords = 0
    this.lastFlushMs = this.init.clock()
  }

  private startTimer(): void {
    const { clock, config, closed, logger, name } = this.init
    const period = Math.max(10, Math.min(config().flushMs, 60_000))
    this.timer = setInterval(() => {
      if (closed() || this.unflushedRecords === 0 || clock() - this.lastFlushMs < config().flushMs) return
      this.init.flush().catch((err: unknown) => logger.error({ partition: name, err }, 'scheduled flush failed'))
    }, period)
    this.timer.unref?.()
  }
}
