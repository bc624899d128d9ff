/**
 * One key of the convergent metadata map, its limits, and the total order that decides which of
 * two versions of a key wins. Every peer applies the same order, so every peer keeps the same
 * winner whatever order the versions arrive in: that is the whole convergence argument.
 */
import { InvalidMetadataError } from './errors.js'
import { compareHlc, type Hlc, validateHlc } from './hlc.js'

export interface Entry {
  readonly key: string
  /** The value, or null for a tombstone (the key was deleted). Shared with the store: do not mutate. */
  readonly value: Uint8Array | null
  readonly hlc: Hlc
  /** Peer id of the writer. */
  readonly origin: string
}

/** Longest key, in UTF-8 bytes. */
export const MAX_KEY_BYTES = 512
/** Largest value: 1 MiB. */
export const MAX_VALUE_BYTES = 1024 * 1024
/** Longest origin peer id, in UTF-8 bytes (libp2p peer ids are ~52 characters). */
export const MAX_ORIGIN_BYTES = 256
/** Most entries in a snapshot, and (by default) in a store. */
export const MAX_SNAPSHOT_ENTRIES = 100_000

const utf8 = new TextEncoder()

/** Whether `text` fits in `maxBytes` of UTF-8, encoding only when its UTF-16 length cannot decide. */
function fitsUtf8(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return false // every UTF-16 unit takes at least one byte
  if (text.length * 3 <= maxBytes) return true // and at most three
  return utf8.encode(text).length <= maxBytes
}

/** Throws `InvalidMetadataError` if `key` is not a non-empty string of at most 512 UTF-8 bytes. */
export function validateKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0)
    throw new InvalidMetadataError('metadata key must be a non-empty string')
  if (!fitsUtf8(key, MAX_KEY_BYTES)) {
    throw new InvalidMetadataError(`metadata key '${key.slice(0, 64)}…' is longer than ${MAX_KEY_BYTES} UTF-8 bytes`)
  }
}

/** Throws `InvalidMetadataError` if `value` is neither null nor a Uint8Array of at most 1 MiB. */
export function validateValue(key: string, value: Uint8Array | null): void {
  if (value === null) return
  if (!(value instanceof Uint8Array)) throw new InvalidMetadataError(`value of metadata key '${key}' is not bytes`)
  if (value.byteLength > MAX_VALUE_BYTES) {
    throw new InvalidMetadataError(
      `value of metadata key '${key}' is ${value.byteLength} bytes; the limit is ${MAX_VALUE_BYTES}`,
    )
  }
}

/** Checks everything a remote peer could get wrong; throws `InvalidMetadataError`. */
export function validateEntry(entry: Entry): void {
  if (typeof entry !== 'object' || entry === null) throw new InvalidMetadataError('metadata entry is not an object')
  validateKey(entry.key)
  validateValue(entry.key, entry.value)
  validateHlc(entry.hlc, `timestamp of metadata key '${entry.key}'`)
  if (typeof entry.origin !== 'string' || entry.origin.length === 0 || !fitsUtf8(entry.origin, MAX_ORIGIN_BYTES)) {
    throw new InvalidMetadataError(
      `origin of metadata key '${entry.key}' must be a peer id of 1..${MAX_ORIGIN_BYTES} UTF-8 bytes`,
    )
  }
}

/**
 * Total order of two versions of one key: HLC, then origin peer id (code-unit string order), then
 * the value itself (tombstone first, then bytes lexicographically). The last rule only matters if
 * one peer stamped two different values with the same HLC — possible after a restart with the
 * wall clock set back — and keeps even that case convergent.
 */
export function compareEntries(a: Entry, b: Entry): number {
  const byClock = compareHlc(a.hlc, b.hlc)
  if (byClock !== 0) return byClock
  if (a.origin !== b.origin) return a.origin < b.origin ? -1 : 1
  return compareValues(a.value, b.value)
}

function compareValues(a: Uint8Array | null, b: Uint8Array | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1
}

/** A frozen entry that owns a private copy of `value`, so neither caller nor input buffer can change it later. */
export function ownedEntry(key: string, value: Uint8Array | null, hlc: Hlc, origin: string): Entry {
  return Object.freeze({
    key,
    value: value === null ? null : value.slice(),
    hlc: Object.freeze({ wallMs: hlc.wallMs, logical: hlc.logical }),
    origin,
  })
}
