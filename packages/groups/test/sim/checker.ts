/**
 * The simulation's invariants, checked against the members themselves (who believes it owns
 * what), not against the coordinator's bookkeeping:
 * - never two live members owning one partition at the same moment (any protocol);
 * - never one partition in two members' assignments of the same generation;
 * - an offset commit lands only in the group's current generation, and never while another
 *   member owns the partition.
 */
import {
  decodeOffsetCommitValue,
  decodeOffsetsKey,
  formatTopicPartition,
  type OffsetsRecord,
  type TopicPartition,
  tpKey,
} from '../../src/index.ts'

export interface Owner {
  /** Process id and incarnation, for messages. */
  name: string
  /** Static instance id, or member id: who the coordinator assigned to. */
  identity: string
  memberId: string
  assignment: TopicPartition[]
}

export class SafetyChecker {
  readonly violations: string[] = []
  private readonly byGeneration = new Map<string, string>()
  commitsLanded = 0

  private fail(message: string): void {
    if (this.violations.length < 20) this.violations.push(message)
  }

  /** No partition with two owners right now. */
  checkOwners(owners: Owner[], now: number): void {
    const seen = new Map<string, string>()
    for (const owner of owners) {
      for (const tp of owner.assignment) {
        const key = tpKey(tp.topic, tp.partition)
        const other = seen.get(key)
        if (other !== undefined) {
          this.fail(`t=${now}: ${formatTopicPartition(tp)} owned by ${other} and ${owner.name} at once`)
        }
        seen.set(key, owner.name)
      }
    }
  }

  /** A member took the assignment of `generation`. */
  onAssigned(owner: Owner, generation: number, now: number): void {
    for (const tp of owner.assignment) {
      const key = `${generation}:${tpKey(tp.topic, tp.partition)}`
      const previous = this.byGeneration.get(key)
      if (previous !== undefined && previous !== owner.identity) {
        this.fail(
          `t=${now}: ${formatTopicPartition(tp)} assigned to ${previous} and ${owner.identity} in generation ${generation}`,
        )
      }
      this.byGeneration.set(key, owner.identity)
    }
  }

  /** A record became durable while the coordinator was at `generation`. */
  onRecord(record: OffsetsRecord, generation: number | undefined, owners: Owner[], now: number): void {
    const key = decodeOffsetsKey(record.key)
    if (key.type !== 'offset' || record.value === null) return
    const value = decodeOffsetCommitValue(record.value)
    this.commitsLanded++
    if (value.generation === -1) return
    const name = `${key.topic}-${key.partition}`
    if (value.generation !== generation) {
      this.fail(`t=${now}: commit for ${name} from generation ${value.generation} landed in generation ${generation}`)
    }
    for (const owner of owners) {
      if (owner.memberId === value.memberId) continue
      if (owner.assignment.some((tp) => tp.topic === key.topic && tp.partition === key.partition)) {
        this.fail(`t=${now}: ${value.memberId} committed ${name} while ${owner.name} owns it`)
      }
    }
  }
}
