/**
 * One assigned partition as the consumer tracks it. A partition is in exactly one of these
 * stages at a time — waiting for a position, fetchable, in a fetch, holding fetched data, being
 * processed — which is what bounds memory: it is never fetched again before its previous data
 * has been handled.
 */

export type ResetPolicy = 'earliest' | 'latest' | 'none'

export interface Fetched {
  records: Uint8Array
  /** The position the fetch asked from. */
  fetchOffset: number
  highWatermark: number
  logStartOffset: number
}

export class PartitionState {
  /** Next offset to deliver; undefined until found (reset policy, or a timestamp lookup). */
  position: number | undefined
  /** How to find the position when it is undefined. */
  reset: Exclude<ResetPolicy, 'none'> = 'latest'
  paused = false
  fetching = false
  processing = false
  buffered: Fetched | undefined
  /** Bumped by seek and by unassignment: results and handlers of an older generation are dropped. */
  generation = 0
  /** No fetch or lookup before this time (after an error). */
  backoffUntil = 0
  /** Consecutive fetch or lookup failures, for backoff. */
  failures = 0
  /** Consecutive times the handler threw on this partition's data, for backoff and giving up. */
  handlerFailures = 0
  highWatermark = -1
  /** The leader this partition was last fetched from (which peer's fetch slots it competes for). */
  leader: string | undefined
  removed = false

  constructor(
    readonly topic: string,
    readonly partition: number,
  ) {}

  get key(): string {
    return partitionKey(this.topic, this.partition)
  }

  get name(): string {
    return `${this.topic}-${this.partition}`
  }

  /** Ready to be put in a fetch request. */
  fetchable(now: number): boolean {
    return (
      !this.removed &&
      !this.paused &&
      !this.fetching &&
      !this.processing &&
      this.buffered === undefined &&
      this.position !== undefined &&
      now >= this.backoffUntil
    )
  }

  /**
   * Known to have records to fetch: its position is below the high watermark of the last answer,
   * so a fetch that includes it is answered at once rather than long-polling.
   */
  get hasData(): boolean {
    return this.position !== undefined && this.position < this.highWatermark
  }

  /**
   * Will want a fetch with data soon, and is not in one: its data is being handled (after which it
   * may have more), or it has data but waits out a backoff or a pause.
   */
  get pendingData(): boolean {
    return !this.removed && !this.fetching && (this.buffered !== undefined || this.processing || this.hasData)
  }

  /** Needs its position looked up. */
  needsPosition(now: number): boolean {
    return (
      !this.removed && !this.fetching && !this.processing && this.position === undefined && now >= this.backoffUntil
    )
  }

  seek(position: number | undefined, reset?: Exclude<ResetPolicy, 'none'>): void {
    this.position = position
    if (reset !== undefined) this.reset = reset
    this.buffered = undefined
    this.generation++
    this.backoffUntil = 0
    this.failures = 0
    this.handlerFailures = 0
  }
}

export function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`
}
