/**
 * A test double of the mesh for the outbox state machine: per partition an in-memory log and the
 * leader's idempotence rules as packages/log applies them (a retained batch — same producer,
 * epoch and sequence range, among the producer's last 5 — is answered with its original
 * offset; one before them in the epoch is DuplicateSequenceError, appended before; a gap in an
 * epoch is OutOfOrderSequenceError; a new epoch, or an unknown producer, starts at any sequence). Faults are switched on by the test: unreachable, a lost answer
 * (appended, then the connection "drops"), a hanging request, a refusal.
 */

import {
  DuplicateSequenceError,
  decodeRecordBatchSync,
  NetworkError,
  OutOfOrderSequenceError,
  type TributaryError,
  UnknownTopicOrPartitionError,
} from '@tributary/wire'
import type { ProduceResult } from '../../src/broker.js'
import type { OutboxProduceRequest, OutboxTarget, PartitionInfo } from '../../src/outbox/target.js'

interface Retained {
  producerId: number
  epoch: number
  first: number
  last: number
  baseOffset: number
}

export interface StoredValue {
  offset: number
  key: string | null
  value: string
  producerId: number
  epoch: number
  sequence: number
}

const text = new TextDecoder()

export class FakeLeader implements OutboxTarget {
  readonly topics = new Map<string, number>()
  readonly logs = new Map<string, StoredValue[]>()
  private readonly retained = new Map<string, Map<number, Retained[]>>()
  reachable = true
  /** Answers lost after the leader handled the request (appended it, or found it a duplicate). */
  loseAnswers = 0
  /** Requests that append, then wait for the abort signal (the producer closes mid-flight). */
  hangAfterAppend = 0
  /** While set, answers wait (after the leader handled the request) until `releaseAnswers`. */
  holdAnswers = false
  /** Requests handled and waiting to be answered while answers are held. */
  heldAnswers = 0
  private readonly answerGate: Array<() => void> = []
  /** Errors the next requests are refused with (nothing appended). */
  refusals: TributaryError[] = []
  requests = 0
  duplicates = 0
  /** Resends of batches appended before the retained ones (answered DuplicateSequenceError). */
  olderDuplicates = 0
  closed = 0

  createTopic(topic: string, partitions: number): void {
    this.topics.set(topic, partitions)
  }

  log(topic: string, partition: number): StoredValue[] {
    return this.logs.get(`${topic}-${partition}`) ?? []
  }

  async partitions(topic: string): Promise<PartitionInfo[]> {
    await Promise.resolve()
    if (!this.reachable) throw new NetworkError('no peer answers (test: unreachable)')
    const count = this.topics.get(topic)
    if (count === undefined) throw new UnknownTopicOrPartitionError(`topic ${topic} does not exist`)
    return Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 'leader' }))
  }

  async produce(request: OutboxProduceRequest, signal: AbortSignal): Promise<ProduceResult> {
    await Promise.resolve()
    signal.throwIfAborted()
    this.requests++
    if (!this.reachable) throw new NetworkError('no peer answers (test: unreachable)')
    const refusal = this.refusals.shift()
    if (refusal !== undefined) throw refusal
    const name = `${request.topic}-${request.partition}`
    const { header, records } = decodeRecordBatchSync(request.records)
    const byProducer = this.retained.get(name) ?? new Map<number, Retained[]>()
    this.retained.set(name, byProducer)
    const mine = byProducer.get(header.producerId) ?? []
    const last = header.baseSequence + header.recordCount - 1
    const dup = mine.find((r) => r.epoch === header.producerEpoch && r.first === header.baseSequence && r.last === last)
    if (dup !== undefined) {
      this.duplicates++
      return this.answer({ baseOffset: dup.baseOffset, logAppendTime: -1, logStartOffset: 0 })
    }
    const latest = mine.at(-1)
    if (latest !== undefined && latest.epoch === header.producerEpoch && last <= latest.last) {
      this.olderDuplicates++
      throw new DuplicateSequenceError(`${name}: sequences ${header.baseSequence}…${last} appended before`)
    }
    if (latest !== undefined && latest.epoch === header.producerEpoch && header.baseSequence !== latest.last + 1) {
      throw new OutOfOrderSequenceError(`${name}: sequence ${header.baseSequence}, expected ${latest.last + 1}`)
    }
    const log = this.logs.get(name) ?? []
    this.logs.set(name, log)
    const baseOffset = log.length
    for (const [i, r] of records.entries()) {
      log.push({
        offset: baseOffset + i,
        key: r.key === null ? null : text.decode(r.key),
        value: text.decode(r.value!),
        producerId: header.producerId,
        epoch: header.producerEpoch,
        sequence: header.baseSequence + i,
      })
    }
    mine.push({
      producerId: header.producerId,
      epoch: header.producerEpoch,
      first: header.baseSequence,
      last,
      baseOffset,
    })
    byProducer.set(header.producerId, mine.slice(-5))
    if (this.holdAnswers) {
      this.heldAnswers++
      await new Promise<void>((resolve) => this.answerGate.push(resolve))
    }
    if (this.hangAfterAppend > 0) {
      this.hangAfterAppend--
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
    }
    return this.answer({ baseOffset, logAppendTime: -1, logStartOffset: 0 })
  }

  releaseAnswers(): void {
    this.holdAnswers = false
    for (const release of this.answerGate.splice(0)) release()
  }

  private answer(result: ProduceResult): ProduceResult {
    if (this.loseAnswers > 0) {
      this.loseAnswers--
      throw new NetworkError('the connection dropped before the answer (test)')
    }
    return result
  }

  async close(): Promise<void> {
    this.closed++
  }
}
