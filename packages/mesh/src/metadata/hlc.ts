/**
 * Hybrid logical clock (Kulkarni et al., "Logical Physical Clocks", 2014): timestamps that stay
 * close to wall-clock milliseconds, yet never go backwards and always order a message after
 * everything its sender had seen. The metadata map orders concurrent writes by them.
 */
import { ClockDriftError, InvalidMetadataError } from './errors.js'

export interface Hlc {
  /** Milliseconds since the Unix epoch (the largest wall clock seen), a safe non-negative integer. */
  readonly wallMs: number
  /** Counter among timestamps with the same `wallMs`, 0..MAX_LOGICAL. */
  readonly logical: number
}

/** The counter is a uint32 on the wire; past it, the clock borrows a millisecond instead. */
export const MAX_LOGICAL = 0xffff_ffff

/** Default bound on how far a remote timestamp may run ahead of our wall clock. */
export const DEFAULT_MAX_DRIFT_MS = 60_000

export const ZERO_HLC: Hlc = Object.freeze({ wallMs: 0, logical: 0 })

export interface HybridLogicalClockOptions {
  /** Source of wall-clock milliseconds; tests inject a fake one. Defaults to `Date.now`. */
  wallClock?: () => number
  /** Remote timestamps further ahead of our wall clock than this are refused. Default 60 s. */
  maxDriftMs?: number
}

/** Total order of timestamps: negative if `a` is earlier, 0 if equal, positive if later. */
export function compareHlc(a: Hlc, b: Hlc): number {
  if (a.wallMs !== b.wallMs) return a.wallMs < b.wallMs ? -1 : 1
  if (a.logical !== b.logical) return a.logical < b.logical ? -1 : 1
  return 0
}

/** Throws `InvalidMetadataError` unless both fields are integers in their wire ranges. */
export function validateHlc(hlc: Hlc, what = 'timestamp'): void {
  if (typeof hlc !== 'object' || hlc === null) throw new InvalidMetadataError(`${what} is not an HLC timestamp`)
  if (!Number.isSafeInteger(hlc.wallMs) || hlc.wallMs < 0) {
    throw new InvalidMetadataError(`${what} has wallMs ${hlc.wallMs}; expected a safe non-negative integer`)
  }
  if (!Number.isInteger(hlc.logical) || hlc.logical < 0 || hlc.logical > MAX_LOGICAL) {
    throw new InvalidMetadataError(`${what} has logical ${hlc.logical}; expected an integer in [0, ${MAX_LOGICAL}]`)
  }
}

export class HybridLogicalClock {
  readonly maxDriftMs: number
  private readonly wallClock: () => number
  private last: Hlc = ZERO_HLC

  constructor(options: HybridLogicalClockOptions = {}) {
    this.wallClock = options.wallClock ?? Date.now
    this.maxDriftMs = options.maxDriftMs ?? DEFAULT_MAX_DRIFT_MS
    if (!(this.maxDriftMs >= 0)) throw new RangeError(`maxDriftMs must be ≥ 0, got ${this.maxDriftMs}`)
  }

  /** Same as `compareHlc`. */
  static compare(a: Hlc, b: Hlc): number {
    return compareHlc(a, b)
  }

  /** The latest timestamp issued or received, without advancing the clock. */
  peek(): Hlc {
    return this.last
  }

  /** A timestamp later than every one issued or received before, even if the wall clock went back. */
  now(): Hlc {
    const wall = this.readWall()
    this.last = wall > this.last.wallMs ? freeze(wall, 0) : successor(this.last.wallMs, this.last.logical)
    return this.last
  }

  /**
   * Merges a remote timestamp: the clock moves past it, so anything stamped here afterwards orders
   * after the remote event. Refuses (`ClockDriftError`) a timestamp more than `maxDriftMs` ahead of
   * our wall clock, and (`InvalidMetadataError`) one that is not a valid HLC; the clock is then
   * unchanged.
   */
  receive(remote: Hlc): Hlc {
    const wall = this.checkRemote(remote)
    const last = this.last
    const maxWall = Math.max(wall, last.wallMs, remote.wallMs)
    if (maxWall === wall && wall > last.wallMs && wall > remote.wallMs) {
      this.last = freeze(wall, 0)
    } else if (last.wallMs === remote.wallMs) {
      this.last = successor(maxWall, Math.max(last.logical, remote.logical))
    } else if (maxWall === last.wallMs) {
      this.last = successor(maxWall, last.logical)
    } else {
      this.last = successor(maxWall, remote.logical)
    }
    return this.last
  }

  /**
   * Validates `remote` and applies the drift bound without moving the clock, for callers that must
   * know whether `receive` would accept it. Returns the wall clock it compared with.
   */
  checkRemote(remote: Hlc): number {
    validateHlc(remote, 'remote timestamp')
    const wall = this.readWall()
    const drift = remote.wallMs - wall
    if (drift > this.maxDriftMs) {
      throw new ClockDriftError(
        `remote timestamp ${remote.wallMs} is ${drift} ms ahead of our clock (limit ${this.maxDriftMs} ms); ` +
          `the sending peer's clock is probably wrong — check its time synchronisation (NTP)`,
        drift,
      )
    }
    return wall
  }

  /** Wall-clock ms, floored; a broken source (NaN, negative) counts as 0 so the logical part carries on. */
  private readWall(): number {
    const wall = Math.floor(this.wallClock())
    return Number.isSafeInteger(wall) && wall >= 0 ? wall : 0
  }
}

/** The timestamp right after (wallMs, logical); an exhausted counter rolls into the next millisecond. */
function successor(wallMs: number, logical: number): Hlc {
  return logical >= MAX_LOGICAL ? freeze(wallMs + 1, 0) : freeze(wallMs, logical + 1)
}

function freeze(wallMs: number, logical: number): Hlc {
  return Object.freeze({ wallMs, logical })
}
