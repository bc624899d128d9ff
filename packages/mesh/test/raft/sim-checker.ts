/**
 * The simulation's safety checks, independent of the code under test: one leader per epoch,
 * and a single committed history — every batch any replica ever had below its high watermark
 * is recorded by base offset (length, epoch, CRC) the first time it is seen, and every later
 * sighting on any replica must match it. A high watermark that falls means committed records
 * disappeared. Voter changes: each committed voter set differs from the one before by a single
 * voter, and a leader never has more than one change uncommitted.
 */
import type { Log } from '@tributary/log'
import { decodeRecordBatchSync, iterateBatches } from '@tributary/wire'
import { isSingleChange, voterSetsIn } from '../../src/raft/index.js'

const text = new TextDecoder()

export class SafetyChecker {
  private readonly leaders = new Map<number, string>()
  /** Committed batches by base offset: `lastOffsetDelta:epoch:crc`. */
  private readonly committed = new Map<number, string>()
  private end = 0
  /** The committed voter set as of `end`. */
  private voters: readonly string[]

  constructor(
    private readonly violate: (message: string) => void,
    initialVoters: readonly string[],
  ) {
    this.voters = initialVoters
  }

  /** The committed history is contiguous from 0 up to here. */
  get committedEnd(): number {
    return this.end
  }

  /** The voter set of the committed history, as far as it was verified. */
  get committedVoters(): readonly string[] {
    return this.voters
  }

  get epochsWithLeader(): number[] {
    return [...this.leaders.keys()]
  }

  leaderElected(epoch: number, id: string): void {
    const known = this.leaders.get(epoch)
    if (known !== undefined && known !== id) this.violate(`two leaders in epoch ${epoch}: ${known} and ${id}`)
    this.leaders.set(epoch, id)
  }

  /**
   * Compares `log`'s batches in [from, high watermark) with the committed history; `verified`
   * is how far this replica was verified before. Returns how far it is verified now.
   */
  async verify(id: string, log: Log, from: number, verified: number): Promise<number> {
    const hw = log.highWatermark
    if (hw < verified) {
      this.violate(`${id}: high watermark fell from ${verified} to ${hw}; committed records disappeared`)
    }
    let offset = Math.max(from, log.logStartOffset)
    while (offset < hw) {
      const read = await log.read(offset, { maxOffset: hw, maxBytes: 256 * 1024 })
      if (read.batchCount === 0) {
        this.violate(`${id}: committed offset ${offset} cannot be read`)
        return offset
      }
      for (const { pos, size, header } of iterateBatches(read.records)) {
        const base = header.baseOffset
        const print = `${header.lastOffsetDelta}:${header.partitionLeaderEpoch}:${header.crc}`
        const known = this.committed.get(base)
        if (known !== undefined) {
          if (known !== print) this.violate(`${id}: committed batch at ${base} changed (${known} → ${print})`)
        } else if (base !== this.end) {
          this.violate(`${id}: committed batch at ${base} does not line up (committed end ${this.end})`)
        } else {
          this.committed.set(base, print)
          this.end = base + header.lastOffsetDelta + 1
          if (header.control) await this.committedControl(id, read.records.subarray(pos, pos + size))
        }
      }
      offset = read.nextOffset
    }
    return Math.min(hw, Math.max(verified, offset))
  }

  /** A control batch entered the committed history: a voter set in it changes the last by one voter. */
  private async committedControl(id: string, batch: Uint8Array): Promise<void> {
    for (const set of await voterSetsIn(batch)) {
      if (!isSingleChange(this.voters, set.voters)) {
        this.violate(`${id}: committed voter set ${set.voters} at ${set.offset} is not one change from ${this.voters}`)
      }
      this.voters = set.voters
    }
  }

  /** On a leader: at most one voter change is not committed yet. */
  async checkVoterChangesInFlight(id: string, log: Log): Promise<void> {
    let offset = log.highWatermark
    let changes = 0
    while (offset < log.logEndOffset) {
      const read = await log.read(offset, { maxOffset: log.logEndOffset, maxBytes: 256 * 1024 })
      if (read.batchCount === 0) break
      changes += (await voterSetsIn(read.records)).length
      offset = read.nextOffset
    }
    if (changes > 1) this.violate(`${id}: leads with ${changes} voter changes uncommitted`)
  }

  /** Every acknowledged record is in `log`'s committed part, at the offset it was acknowledged with. */
  async checkAcknowledged(id: string, log: Log, acked: readonly { value: string; offset: number }[]): Promise<void> {
    const values = await committedValues(log)
    for (const { value, offset } of acked) {
      const found = values.get(offset)
      if (found !== value) {
        this.violate(`${id}: acknowledged record ${value} at ${offset} is missing (found ${found ?? 'nothing'})`)
        return
      }
    }
  }
}

/** offset → value of every data record below the high watermark. */
async function committedValues(log: Log): Promise<Map<number, string>> {
  const values = new Map<number, string>()
  let offset = log.logStartOffset
  while (offset < log.highWatermark) {
    const read = await log.read(offset, { maxBytes: 1024 * 1024 })
    if (read.batchCount === 0) break
    for (const { pos, size, header } of iterateBatches(read.records)) {
      if (header.control) continue
      const batch = decodeRecordBatchSync(read.records.subarray(pos, pos + size))
      for (const record of batch.records) {
        values.set(record.offset, record.value === null ? '' : text.decode(record.value))
      }
    }
    offset = read.nextOffset
  }
  return values
}
