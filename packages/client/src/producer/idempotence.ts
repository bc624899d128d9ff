/**
 * An idempotent producer's identity: a producer id, an epoch, and per partition the sequence of
 * the next record. The rules agreed with the leader side: the id is a random integer in
 * [1, 2^53) chosen here (no coordinator to ask), the epoch is 0, sequences start at 0 per
 * partition and wrap at 2^31, and a batch carries the sequence of its first record. The leader
 * answers a resent batch with its original offset, so a retry after a lost answer appends once.
 *
 * When a partition's sequence can no longer line up with what its leader holds (a batch failed
 * in a way that leaves unknown whether it was appended), that partition continues under a fresh
 * random producer id from sequence 0: to the leader it is a new producer, so later batches are
 * not refused as out of order. Kafka bumps the epoch for this (KIP-360); with ids chosen by the
 * client, a new id needs no coordinator.
 */

export interface SequenceAssignment {
  producerId: number
  producerEpoch: number
  baseSequence: number
}

export const SEQUENCE_MODULUS = 2 ** 31
const ID_LIMIT = 2 ** 53

/** A random producer id in [1, 2^53), from the platform's CSPRNG (Node and browsers alike). */
export function randomProducerId(): number {
  const words = new Uint32Array(2)
  for (;;) {
    crypto.getRandomValues(words)
    const id = (words[0]! & 0x1f_ffff) * 2 ** 32 + words[1]!
    if (id >= 1 && id < ID_LIMIT) return id
  }
}

interface PartitionSequence {
  producerId: number
  next: number
}

export class ProducerIdentity {
  readonly producerId: number
  readonly producerEpoch = 0
  private readonly partitions = new Map<string, PartitionSequence>()

  constructor(private readonly newId: () => number = randomProducerId) {
    this.producerId = newId()
  }

  private state(topic: string, partition: number): PartitionSequence {
    const key = `${topic}\u0000${partition}`
    let state = this.partitions.get(key)
    if (state === undefined) {
      state = { producerId: this.producerId, next: 0 }
      this.partitions.set(key, state)
    }
    return state
  }

  /** The producer id the partition's batches carry now. */
  producerIdOf(topic: string, partition: number): number {
    return this.state(topic, partition).producerId
  }

  /** Takes `count` sequences for a batch about to be sent for the first time. */
  assign(topic: string, partition: number, count: number): SequenceAssignment {
    const state = this.state(topic, partition)
    const baseSequence = state.next
    state.next = (state.next + count) % SEQUENCE_MODULUS
    return { producerId: state.producerId, producerEpoch: this.producerEpoch, baseSequence }
  }

  /**
   * Gives back the sequences of the last batch assigned, which the leader certainly refused (it
   * validated and rejected it). Returns false when they were not the last ones (nothing changes).
   */
  rollback(topic: string, partition: number, assigned: SequenceAssignment, count: number): boolean {
    const state = this.state(topic, partition)
    if (state.producerId !== assigned.producerId) return false
    if ((assigned.baseSequence + count) % SEQUENCE_MODULUS !== state.next) return false
    state.next = assigned.baseSequence
    return true
  }

  /** The partition continues as a new producer: a fresh id, sequence 0. */
  reset(topic: string, partition: number): void {
    const state = this.state(topic, partition)
    let id = this.newId()
    while (id === state.producerId) id = this.newId()
    state.producerId = id
    state.next = 0
  }
}
