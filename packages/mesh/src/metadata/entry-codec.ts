/**
 * Protobuf encoding of metadata entries (one gossip message each) and snapshots (the full-state
 * exchange on connect). Decoding is where a peer's bytes first meet our code, so it bounds every
 * repeated field, validates every entry, and turns any failure into `InvalidMetadataError`.
 */
import { MetadataEntry, MetadataSnapshot } from '@tributary/wire/pb/metadata'
import { type Entry, MAX_SNAPSHOT_ENTRIES, ownedEntry, validateEntry } from './entry.js'
import { InvalidMetadataError } from './errors.js'

export interface DecodeSnapshotOptions {
  /** Refuse snapshots with more entries than this. Default (and ceiling) 100,000. */
  maxEntries?: number
}

export function encodeEntry(entry: Entry): Uint8Array {
  validateEntry(entry)
  return MetadataEntry.encode(toMessage(entry))
}

/** Decodes and validates one entry; the result owns its value (it does not pin `bytes`). */
export function decodeEntry(bytes: Uint8Array): Entry {
  const message = parse(() => MetadataEntry.decode(bytes), 'metadata entry')
  return fromMessage(message)
}

export function encodeSnapshot(entries: readonly Entry[]): Uint8Array {
  checkCount(entries.length, MAX_SNAPSHOT_ENTRIES)
  for (const entry of entries) validateEntry(entry)
  return MetadataSnapshot.encode({ entries: entries.map(toMessage) })
}

/** Decodes and validates a whole snapshot: either every entry is valid, or it throws. */
export function decodeSnapshot(bytes: Uint8Array, options: DecodeSnapshotOptions = {}): Entry[] {
  const maxEntries = Math.min(options.maxEntries ?? MAX_SNAPSHOT_ENTRIES, MAX_SNAPSHOT_ENTRIES)
  // The limit makes the decoder stop at entry maxEntries + 1 instead of materialising them all.
  const message = parse(() => MetadataSnapshot.decode(bytes, { limits: { entries: maxEntries } }), 'metadata snapshot')
  return message.entries.map(fromMessage)
}

export function checkCount(count: number, maxEntries: number): void {
  if (count > maxEntries) {
    throw new InvalidMetadataError(`metadata snapshot has ${count} entries; the limit is ${maxEntries}`)
  }
}

function toMessage(entry: Entry): MetadataEntry {
  const message: MetadataEntry = {
    key: entry.key,
    wallMs: entry.hlc.wallMs,
    logical: entry.hlc.logical,
    origin: entry.origin,
  }
  if (entry.value !== null) message.value = entry.value as Uint8Array<ArrayBuffer>
  return message
}

function fromMessage(message: MetadataEntry): Entry {
  const hlc = { wallMs: message.wallMs, logical: message.logical }
  validateEntry({ key: message.key, value: message.value ?? null, hlc, origin: message.origin })
  return ownedEntry(message.key, message.value ?? null, hlc, message.origin)
}

/** Runs a protons decoder; whatever it throws (truncation, bad wire type, limits, deep groups) is invalid input. */
function parse<T>(decode: () => T, what: string): T {
  try {
    return decode()
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    throw new InvalidMetadataError(`${what} does not decode: ${reason}`, { cause: err })
  }
}
