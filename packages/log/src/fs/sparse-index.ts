import type { FileHandle } from 'node:fs/promises'

/**
 * A sparse, sorted index persisted as fixed-size big-endian entries — Kafka's `.index`
 * (relative offset → file position, 8 bytes) and `.timeindex` (timestamp → relative offset,
 * 12 bytes). Entries live in memory for the segments in use and are appended to the file in
 * batches (`persist`), so a crash loses at most the unpersisted tail, which recovery rebuilds.
 * Both columns are non-decreasing, which `load` checks (Kafka's index sanity check).
 */
export class SparseIndex {
  private keys: number[] = []
  private values: number[] = []
  private persisted = 0

  constructor(readonly kind: 'offset' | 'time') {}

  get entrySize(): number {
    return this.kind === 'offset' ? 8 : 12
  }
  get length(): number {
    return this.keys.length
  }
  get lastKey(): number | undefined {
    return this.keys.at(-1)
  }
  get lastValue(): number | undefined {
    return this.values.at(-1)
  }

  /** Reads a file's entries; stops at a partial or out-of-order entry and reports whether it had to. */
  static async load(kind: 'offset' | 'time', handle: FileHandle): Promise<{ index: SparseIndex; clean: boolean }> {
    const index = new SparseIndex(kind)
    const { size } = await handle.stat()
    const entry = index.entrySize
    const whole = Math.floor(size / entry)
    let clean = whole * entry === size
    if (whole > 0) {
      const buf = new Uint8Array(whole * entry)
      await handle.read(buf, 0, buf.length, 0)
      const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
      for (let i = 0; i < whole; i++) {
        const at = i * entry
        const key = kind === 'offset' ? view.getUint32(at) : Number(view.getBigInt64(at))
        const value = view.getUint32(at + (kind === 'offset' ? 4 : 8))
        const prevKey = index.keys.at(-1)
        const prevValue = index.values.at(-1)
        if (prevKey !== undefined && (key < prevKey || value < prevValue!)) {
          clean = false
          break
        }
        index.keys.push(key)
        index.values.push(value)
      }
    }
    index.persisted = index.keys.length
    return { index, clean: clean && index.keys.length === whole }
  }

  append(key: number, value: number): void {
    this.keys.push(key)
    this.values.push(value)
  }

  /** Value of the last entry whose key is ≤ `key` (offset index: the position to scan from). */
  floorValue(key: number): number | undefined {
    const i = this.floorIndex(key, false)
    return i < 0 ? undefined : this.values[i]
  }

  /** Value of the last entry whose key is < `key` (time index: an offset safe to scan from). */
  lowerValue(key: number): number | undefined {
    const i = this.floorIndex(key, true)
    return i < 0 ? undefined : this.values[i]
  }

  private floorIndex(key: number, strict: boolean): number {
    let lo = 0
    let hi = this.keys.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const k = this.keys[mid]!
      if (strict ? k < key : k <= key) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }

  /** Drops entries from the first whose `column` value is ≥ `limit`. */
  truncateWhere(column: 'key' | 'value', limit: number): void {
    const col = column === 'key' ? this.keys : this.values
    let n = col.length
    while (n > 0 && col[n - 1]! >= limit) n--
    this.keys.length = n
    this.values.length = n
    if (this.persisted > n) this.persisted = n
  }

  /** Writes entries not yet in the file, trimming the file to this index first. */
  async persist(handle: FileHandle, truncateFile = false): Promise<void> {
    const entry = this.entrySize
    if (truncateFile) await handle.truncate(this.persisted * entry)
    const pending = this.keys.length - this.persisted
    if (pending === 0) return
    const buf = new Uint8Array(pending * entry)
    const view = new DataView(buf.buffer)
    for (let i = 0; i < pending; i++) {
      const at = i * entry
      const key = this.keys[this.persisted + i]!
      const value = this.values[this.persisted + i]!
      if (this.kind === 'offset') view.setUint32(at, key)
      else view.setBigInt64(at, BigInt(key))
      view.setUint32(at + (this.kind === 'offset' ? 4 : 8), value)
    }
    await handle.write(buf, 0, buf.length, this.persisted * entry)
    this.persisted = this.keys.length
  }

  get unpersisted(): number {
    return this.keys.length - this.persisted
  }
}
