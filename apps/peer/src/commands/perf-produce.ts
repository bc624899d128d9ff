/**
 * `tributary perf produce` (kafka-producer-perf-test): sends `--num-records` records of
 * `--record-size` bytes (keyless, one random payload reused, as Kafka's tool does) through the
 * SDK's producer, at most `--throughput` records/s, and reports records/s, MB/s and latency
 * percentiles. Records go out in sends of `--records-per-send`, with at most MAX_PENDING_SENDS
 * sends or MAX_PENDING_BYTES of values unacknowledged (the SDK batches them per partition); a
 * record's latency is its send's: from the call to the acknowledgement, so at full speed it
 * includes the wait behind the records ahead (as in Kafka's tool, bounded by buffer.memory).
 */
import { randomFillSync } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Command } from 'commander'
import { CommandFailedError, checkTopic, topicFailure } from './failure.js'
import * as parse from './parse.js'
import { startProgress } from './perf-progress.js'
import { ProduceStats, produceFinalLine, produceWindowLine } from './perf-stats.js'
import { type PeerOptions, peerOptions, withMesh } from './run-command.js'

/**
 * Unacknowledged sends, and the bytes of values they hold. Keyless records stick to one partition
 * for a whole batch (512 KiB) and an idempotent producer has one batch in flight per partition, so
 * several batches' worth must be pending for every partition to have its next batch filling while
 * one is in flight. With sends of 500 100-byte records to 6 partitions, each partition had no
 * request in flight ~22% of the time with 64 pending sends, ~15% with 128, ~10% with 256; but
 * every record pending adds its wait to the latencies reported, so 128 (~6 MiB of values).
 */
const MAX_PENDING_SENDS = 128
const MAX_PENDING_BYTES = 8 * 1024 * 1024
/** A throttled run sends at least this often per second, so the rate stays smooth. */
const THROTTLE_SENDS_PER_S = 100

interface PerfProduceOptions extends PeerOptions {
  topic: string
  numRecords: number
  recordSize: number
  throughput: number
  acks: parse.AcksOption
  recordsPerSend: number
  idempotence: boolean
  reportingInterval: number
  json?: boolean
}

export function registerPerfProduce(perf: Command): void {
  peerOptions(
    perf
      .command('produce')
      .description("producer throughput and latency (Kafka's kafka-producer-perf-test); MB = 2^20 bytes")
      .requiredOption('--topic <topic>', 'topic to write to (must exist)', parse.topicName)
      .requiredOption('--num-records <n>', 'records to send', parse.positiveCount)
      .requiredOption(
        '--record-size <bytes>',
        'value size of each record',
        parse.integerIn(0, 8 * 1024 * 1024, 'bytes'),
      )
      .option('--throughput <r>', 'at most r records/s; -1: as fast as possible', parse.throughput, -1)
      .option('--acks <acks>', '0, 1 or all', parse.acks, 'all')
      .option('--records-per-send <n>', 'records per producer.send call', parse.integerIn(1, 100_000, 'a count'), 500)
      .option('--no-idempotence', 'turn off exactly-once appends (on by default with acks=all)')
      .option(
        '--reporting-interval <ms>',
        'plain progress lines this often when stderr is not a terminal',
        parse.milliseconds,
        5000,
      )
      .option('--json', 'print the final figures as one JSON object'),
  ).action((opts: PerfProduceOptions) => perfProduce(opts))
}

async function perfProduce(opts: PerfProduceOptions): Promise<void> {
  await withMesh(opts, async ({ mesh, output, signal }) => {
    await checkTopic(mesh.admin(), opts.topic, undefined, signal)
    const producer = mesh.producer({ idempotent: opts.idempotence && opts.acks === 'all' })
    const payload = randomFillSync(Buffer.alloc(opts.recordSize))
    const throttled = opts.throughput > 0
    const perSend = throttled
      ? Math.max(1, Math.min(opts.recordsPerSend, Math.floor(opts.throughput / THROTTLE_SENDS_PER_S)))
      : opts.recordsPerSend
    const stats = new ProduceStats(opts.numRecords)
    const progress = startProgress({
      unit: 'records',
      total: opts.numRecords,
      intervalMs: opts.reportingInterval,
      windowLine: () => produceWindowLine(stats.takeWindow()),
    })
    const pending = new Set<Promise<void>>()
    let pendingBytes = 0
    let failure: unknown
    const started = performance.now()
    try {
      let issued = 0
      while (issued < opts.numRecords && failure === undefined && !signal.aborted) {
        const count = Math.min(perSend, opts.numRecords - issued)
        const messages = Array.from({ length: count }, () => ({ value: payload }))
        const bytes = count * opts.recordSize
        issued += count
        pendingBytes += bytes
        const sentAt = performance.now()
        const send: Promise<void> = producer
          .send({ topic: opts.topic, acks: opts.acks === 'all' ? -1 : opts.acks, messages, signal })
          .then(
            () => {
              stats.record(count, count * opts.recordSize, performance.now() - sentAt)
              progress.update(stats.acknowledged)
            },
            (err: unknown) => {
              failure ??= err
            },
          )
          .finally(() => {
            pending.delete(send)
            pendingBytes -= bytes
          })
        pending.add(send)
        // Bounded loop: each turn waits for one send to settle.
        while (pending.size >= MAX_PENDING_SENDS || (pending.size > 0 && pendingBytes >= MAX_PENDING_BYTES))
          await Promise.race(pending)
        if (throttled) {
          // Kafka's ThroughputThrottler: ahead of schedule, wait until the schedule catches up.
          const aheadMs = (issued / opts.throughput) * 1000 - (performance.now() - started)
          if (aheadMs > 1) await sleep(aheadMs, undefined, { signal }).catch(() => {})
        }
      }
      await Promise.all(pending)
    } finally {
      progress.stop()
      await producer.disconnect().catch(() => {})
    }
    const figures = stats.final()
    if (opts.json === true) {
      await output.json({
        command: 'perf produce',
        topic: opts.topic,
        acks: opts.acks,
        record_size: opts.recordSize,
        requested_records: opts.numRecords,
        ...figures,
      })
    } else await output.line(produceFinalLine(figures))
    if (failure !== undefined) {
      const why = topicFailure(failure, opts.topic)
      throw new CommandFailedError(`${why.message} (${stats.acknowledged} records were acknowledged)`, { cause: why })
    }
    if (signal.aborted && stats.acknowledged < opts.numRecords)
      throw new CommandFailedError(`interrupted after ${stats.acknowledged} of ${opts.numRecords} records`)
  })
}
