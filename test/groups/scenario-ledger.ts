/**
 * The scenario test's bookkeeping: what every group member (in the test's process or its own)
 * processed, committed, owned and gave up, in the order the test learned it, and the checks of
 * the end: nothing skipped, and every record processed twice explained by a hand-over that
 * allows it.
 *
 * At-least-once, as Kafka states it: a member that gives up a partition without committing its
 * position — killed, or told its session expired ('lost') — may have its records after its last
 * commit processed again by the next owner, and only those. A clean hand-over (revoked in a
 * rebalance, or left) commits first, so it repeats nothing. While the coordinator's peer is
 * being replaced a revocation's commit can fail; then too, only records after the member's last
 * commit may repeat. Each hand-over is kept as a window [last commit, last processed] of its
 * member and partition. A member whose session expired may go on reading until it hears so (a
 * zombie, as in Kafka): records in its window may be read by it and its successor in either order.
 */

export type Phase = 'grow' | 'leave' | 'crash' | 'rejoin' | 'failover' | 'static' | 'drain' | 'lag'

export type HandoverKind = 'revoke' | 'lost' | 'crash'

export interface Processing {
  /** Order in which the test learned of it (one counter across all members). */
  seq: number
  member: string
  partition: number
  offset: number
  key: string | null
  value: string | null
  phase: Phase
}

export interface Handover {
  seq: number
  member: string
  partition: number
  /** The member's last commit for the partition (the next offset), or its first record of this stint if none. */
  from: number
  /** Its last processed offset (-1: none). */
  to: number
  kind: HandoverKind
  phase: Phase
}

export interface Overlap {
  seq: number
  partition: number
  members: string[]
  phase: Phase
}

/** Everything the test knows about one member (one consumer instance). */
export class MemberLog {
  readonly owned = new Set<number>()
  joins = 0
  assigns = 0
  revokes = 0
  losses = 0
  generation = -1
  processedCount = 0
  /** No longer part of the group (killed, closed, or left): it owns nothing it could read. */
  gone = false
  private readonly committed = new Map<number, number>()
  private readonly first = new Map<number, number>()
  private readonly last = new Map<number, number>()

  constructor(
    readonly name: string,
    private readonly ledger: Ledger,
  ) {}

  /** The rebalances this member took part in, as a comparable string. */
  rebalances(): string {
    return `joins ${this.joins}, assigns ${this.assigns}, revokes ${this.revokes}, losses ${this.losses}`
  }

  joined(generation: number): void {
    this.joins++
    this.generation = generation
  }

  assigned(partitions: number[]): void {
    this.assigns++
    for (const p of partitions) {
      this.owned.add(p)
      this.committed.delete(p)
      this.first.delete(p)
      this.last.delete(p)
    }
  }

  revoked(partitions: number[]): void {
    this.revokes++
    this.handover(partitions, 'revoke')
  }

  lost(partitions: number[]): void {
    this.losses++
    this.handover(partitions, 'lost')
  }

  /** Killed: whatever it owned is handed over without a commit. */
  crashed(): void {
    this.handover([...this.owned], 'crash')
    this.gone = true
  }

  committedOffsets(offsets: Array<[number, number]>): void {
    for (const [p, next] of offsets) this.committed.set(p, next)
  }

  processed(partition: number, offset: number, key: string | null, value: string | null): void {
    this.processedCount++
    if (!this.first.has(partition)) this.first.set(partition, offset)
    this.last.set(partition, offset)
    this.ledger.record(this.name, partition, offset, key, value)
  }

  lastProcessed(partition: number): number | undefined {
    return this.last.get(partition)
  }

  /** The last offset it reported committing for the partition in its current stint. */
  lastCommitted(partition: number): number | undefined {
    return this.committed.get(partition)
  }

  private handover(partitions: number[], kind: HandoverKind): void {
    for (const p of partitions) {
      this.owned.delete(p)
      const from = this.committed.get(p) ?? this.first.get(p) ?? Number.POSITIVE_INFINITY
      this.ledger.handover(this.name, p, from, this.last.get(p) ?? -1, kind)
    }
  }
}

export class Ledger {
  phase: Phase = 'grow'
  readonly members = new Map<string, MemberLog>()
  readonly processings: Processing[] = []
  readonly handovers: Handover[] = []
  readonly overlaps: Overlap[] = []
  private seq = 0

  member(name: string): MemberLog {
    if (this.members.has(name)) throw new Error(`member ${name} exists already`)
    const log = new MemberLog(name, this)
    this.members.set(name, log)
    return log
  }

  live(): MemberLog[] {
    return [...this.members.values()].filter((m) => !m.gone)
  }

  /** Partition → its owners among the live members, as their own events tell. */
  owners(): Map<number, string[]> {
    const owners = new Map<number, string[]>()
    for (const m of this.live()) for (const p of m.owned) owners.set(p, [...(owners.get(p) ?? []), m.name])
    return owners
  }

  /** Per partition, the last commit its live owner reported in its current stint (absent: none yet). */
  committed(): Map<number, number> {
    const out = new Map<number, number>()
    for (const m of this.live()) {
      for (const p of m.owned) {
        const offset = m.lastCommitted(p)
        if (offset !== undefined) out.set(p, offset)
      }
    }
    return out
  }

  /** Notes every partition that two live members believe they own at once. */
  sample(): void {
    for (const [partition, members] of this.owners()) {
      if (members.length > 1 && this.overlaps.length < 1000)
        this.overlaps.push({ seq: ++this.seq, partition, members, phase: this.phase })
    }
  }

  record(member: string, partition: number, offset: number, key: string | null, value: string | null): void {
    this.processings.push({ seq: ++this.seq, member, partition, offset, key, value, phase: this.phase })
  }

  handover(member: string, partition: number, from: number, to: number, kind: HandoverKind): void {
    this.handovers.push({ seq: ++this.seq, member, partition, from, to, kind, phase: this.phase })
  }

  /** Offsets of records (`records`: partition → its record offsets) that no member processed. */
  skipped(records: ReadonlyMap<number, readonly number[]>): Map<number, number[]> {
    const seen = new Map<number, Set<number>>()
    for (const p of this.processings) {
      const set = seen.get(p.partition) ?? new Set<number>()
      seen.set(p.partition, set.add(p.offset))
    }
    const out = new Map<number, number[]>()
    for (const [partition, offsets] of records) {
      const missing = offsets.filter((o) => !seen.get(partition)?.has(o))
      if (missing.length > 0) out.set(partition, missing)
    }
    return out
  }

  /**
   * Every repeat processing (a record processed again after someone processed it), each with the
   * hand-over that allows it, or none: `unexplained` must be empty.
   */
  repeats(): { explained: Array<{ repeat: Processing; by: Handover }>; unexplained: Processing[] } {
    const byRecord = new Map<string, Processing[]>()
    for (const p of this.processings) {
      const key = `${p.partition}@${p.offset}`
      const list = byRecord.get(key)
      if (list === undefined) byRecord.set(key, [p])
      else list.push(p)
    }
    const explained: Array<{ repeat: Processing; by: Handover }> = []
    const unexplained: Processing[] = []
    for (const list of byRecord.values()) {
      for (let i = 1; i < list.length; i++) {
        const before = list[i - 1]!
        const repeat = list[i]!
        const by = this.handovers.find(
          (h) =>
            h.partition === repeat.partition &&
            h.from <= repeat.offset &&
            repeat.offset <= h.to &&
            // The first reader gave the partition up without committing past the record; then it was read again.
            ((h.member === before.member &&
              h.seq > before.seq &&
              h.seq < repeat.seq &&
              (h.kind !== 'revoke' || h.phase === 'failover')) ||
              // A zombie: either reader's session had expired, which it was told only afterwards.
              (h.kind === 'lost' &&
                ((h.member === before.member && h.seq > before.seq) ||
                  (h.member === repeat.member && h.seq > repeat.seq)))),
        )
        if (by === undefined) unexplained.push(repeat)
        else explained.push({ repeat, by })
      }
    }
    return { explained, unexplained }
  }

  /** Overlaps not explained by a zombie: a member whose session had expired without its knowing, later told 'lost'. */
  unexplainedOverlaps(): Overlap[] {
    return this.overlaps.filter(
      (o) =>
        !o.members.some((m) =>
          this.handovers.some(
            (h) => h.member === m && h.partition === o.partition && h.kind === 'lost' && h.seq > o.seq,
          ),
        ),
    )
  }
}
