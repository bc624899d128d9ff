/**
 * The convergent metadata map: last-writer-wins per key, ordered by hybrid logical clock and then
 * writer peer id (`compareEntries`). Merging is commutative, associative and idempotent, so peers
 * that have seen the same set of entries — in any order, with duplicates — hold the same map.
 *
 * The store is transport-agnostic. The mesh publishes what `set`/`delete` return (or what
 * `onChange` reports) over gossipsub, feeds received entries to `merge`, and exchanges
 * `snapshot()` / `mergeSnapshot()` when two peers connect, which repairs anything gossip lost.
 *
 * Tombstones are kept: a deletion must outlive every older copy of the key still travelling or
 * sitting on an offline peer, or that copy would resurrect the key. Metadata keys are few (one
 * per topic name ever used) and re-creating a key overwrites its tombstone, so the cost stays
 * small; `pruneTombstones` exists for operators who accept the resurrection risk past a horizon.
 */
import { type Logger, silentLogger } from '../logger.js'
import {
  compareEntries,
  type Entry,
  MAX_SNAPSHOT_ENTRIES,
  ownedEntry,
  validateEntry,
  validateKey,
  validateValue,
} from './entry.js'
import { checkCount } from './entry-codec.js'
import { InvalidMetadataError } from './errors.js'
import { compareHlc, type Hlc, HybridLogicalClock } from './hlc.js'

export type ChangeListener = (key: string, entry: Entry, previous: Entry | undefined) => void

export interface MetadataStoreOptions {
  /** This peer's id: the origin of every local write and the tie-breaker between equal clocks. */
  peerId: string
  /** Clock to stamp local writes with; by default a new one over `Date.now`. */
  clock?: HybridLogicalClock
  /** Most keys (tombstones included) the store will hold; further new keys are refused. Default 100,000. */
  maxEntries?: number
  /** Where errors thrown by change listeners are reported. */
  logger?: Logger
}

interface Change {
  key: string
  entry: Entry
  previous: Entry | undefined
}

export class MetadataStore {
  readonly peerId: string
  readonly clock: HybridLogicalClock
  readonly maxEntries: number
  private readonly map = new Map<string, Entry>()
  private readonly listeners = new Set<ChangeListener>()
  private readonly logger: Logger
  /** Changes not yet delivered; a listener that writes to the store queues rather than nests. */
  private readonly pending: Change[] = []
  private notifying = false

  constructor(options: MetadataStoreOptions) {
    if (typeof options.peerId !== 'string' || options.peerId.length === 0) {
      throw new InvalidMetadataError('MetadataStore needs the local peer id')
    }
    this.peerId = options.peerId
    this.clock = options.clock ?? new HybridLogicalClock()
    this.maxEntries = options.maxEntries ?? MAX_SNAPSHOT_ENTRIES
    this.logger = options.logger ?? silentLogger
  }

  /** Number of keys held, tombstones included. */
  get size(): number {
    return this.map.size
  }

  /** Writes `value` under `key` with a fresh local timestamp; returns the entry to publish. */
  set(key: string, value: Uint8Array): Entry {
    validateKey(key)
    if (value === null) throw new InvalidMetadataError(`use delete('${key}') to remove a metadata key`)
    validateValue(key, value)
    return this.writeLocal(key, value)
  }

  /** Writes a tombstone under `key` (even if the key is unknown here: it may exist elsewhere). */
  delete(key: string): Entry {
    validateKey(key)
    return this.writeLocal(key, null)
  }

  /**
   * Accepts a remote entry if it orders after the one held for its key. Returns whether anything
   * changed. Throws — and changes nothing — if the entry is invalid (`InvalidMetadataError`),
   * stamped too far in the future (`ClockDriftError`), or a new key would exceed `maxEntries`.
   */
  merge(entry: Entry): boolean {
    validateEntry(entry)
    if (!this.map.has(entry.key)) this.checkCapacity(1)
    // Every timestamp seen moves the clock, winner or not, so later local writes order after it.
    // This is also the drift check, and it throws before anything changed.
    this.clock.receive(entry.hlc)
    return this.mergeChecked(entry)
  }

  /**
   * Merges a peer's full state. All-or-nothing validation: if any entry is invalid or too far in
   * the future, or the new keys would not fit, it throws before merging anything. Returns how many
   * keys changed.
   */
  mergeSnapshot(entries: readonly Entry[]): number {
    checkCount(entries.length, MAX_SNAPSHOT_ENTRIES)
    const newKeys = new Set<string>()
    let latest: Entry | undefined
    for (const entry of entries) {
      validateEntry(entry)
      if (latest === undefined || compareHlc(entry.hlc, latest.hlc) > 0) latest = entry
      if (!this.map.has(entry.key)) newKeys.add(entry.key)
    }
    this.checkCapacity(newKeys.size)
    // Receiving the latest timestamp moves the clock past all of them, and the drift bound is
    // monotonic in the timestamp, so this one check covers the whole snapshot.
    if (latest !== undefined) this.clock.receive(latest.hlc)
    let changed = 0
    for (const entry of entries) if (this.mergeChecked(entry)) changed++
    return changed
  }

  /** The entry held for `key`, tombstone included (`value === null`), or undefined if never seen. */
  get(key: string): Entry | undefined {
    return this.map.get(key)
  }

  /** Live (non-tombstone) entries whose key starts with `prefix`, sorted by key. */
  entries(prefix = ''): Entry[] {
    const out: Entry[] = []
    for (const entry of this.map.values()) {
      if (entry.value !== null && entry.key.startsWith(prefix)) out.push(entry)
    }
    return out.sort(byKey)
  }

  /** Every entry, tombstones included, sorted by key: what a connecting peer needs. */
  snapshot(): Entry[] {
    return [...this.map.values()].sort(byKey)
  }

  /**
   * Calls `listener` after every real change (a local write, or a merge that won), in the order
   * the changes happened. Returns the unsubscribe function.
   */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /**
   * Forgets tombstones stamped before `before`. Only safe if no peer can still hold or send an
   * older live version of those keys (it would come back); returns how many were dropped.
   */
  pruneTombstones(before: Hlc): number {
    let dropped = 0
    for (const [key, entry] of this.map) {
      if (entry.value === null && compareHlc(entry.hlc, before) < 0) {
        this.map.delete(key)
        dropped++
      }
    }
    return dropped
  }

  /**
   * Whether `incoming` replaces `current`. The convergence guarantee rests on this being a strict
   * total order; it is protected only so tests can break it and watch convergence fail.
   */
  protected wins(incoming: Entry, current: Entry): boolean {
    return compareEntries(incoming, current) > 0
  }

  private writeLocal(key: string, value: Uint8Array | null): Entry {
    const previous = this.map.get(key)
    if (previous === undefined) this.checkCapacity(1)
    // The clock has received every timestamp in the map, so this entry orders after all of them.
    const entry = ownedEntry(key, value, this.clock.now(), this.peerId)
    this.apply(entry, previous)
    return entry
  }

  /** Merge of an entry already validated, drift-checked and received by the clock. */
  private mergeChecked(entry: Entry): boolean {
    const previous = this.map.get(entry.key)
    if (previous !== undefined && !this.wins(entry, previous)) return false
    this.apply(ownedEntry(entry.key, entry.value, entry.hlc, entry.origin), previous)
    return true
  }

  private apply(entry: Entry, previous: Entry | undefined): void {
    this.map.set(entry.key, entry)
    this.pending.push({ key: entry.key, entry, previous })
    this.drain()
  }

  private drain(): void {
    if (this.notifying) return
    this.notifying = true
    try {
      for (let change = this.pending.shift(); change !== undefined; change = this.pending.shift()) {
        for (const listener of [...this.listeners]) {
          try {
            listener(change.key, change.entry, change.previous)
          } catch (err) {
            // A broken listener must not stop the others or undo a change that already happened.
            this.logger.error({ err, key: change.key }, 'metadata change listener threw')
          }
        }
      }
    } finally {
      this.notifying = false
    }
  }

  private checkCapacity(newKeys: number): void {
    if (this.map.size + newKeys > this.maxEntries) {
      throw new InvalidMetadataError(
        `metadata store is full (${this.map.size} keys, limit ${this.maxEntries}); ` +
          `delete unused topics and prune old tombstones`,
      )
    }
  }
}

function byKey(a: Entry, b: Entry): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0
}
