/**
 * `tributary perf consume` (kafka-consumer-perf-test): reads `--messages` records of a topic
 * from the beginning, every partition, through the SDK's consumer, and reports records/s and
 * MB/s (key and value bytes; MB = 2^20 bytes). The clock starts when the consumer starts
 * running and stops at the record that reaches the count. If `--timeout-ms` passes without a
 * record before then, the figures so far are printed and the command fails.
 */
import type { Command } from 'commander'
import { CommandFailedError, checkTopic, topicFailure } from './failure.js'
import * as parse from './parse.js'
import { startProgress } from './perf-progress.js'
import { consumeLine, throughputFigures } from './perf-stats.js'
import { type PeerOptions, peerOptions, withMesh } from './run-command.js'

interface PerfConsumeOptions extends PeerOptions {
  topic: string
  messages: number
  timeoutMs: number
  fetchMaxWaitMs: number
  fetchSize: number
  reportingInterval: number
  json?: boolean
}

export function registerPerfConsume(perf: Command): void {
  peerOptions(
    perf
      .command('consume')
      .description("consumer throughput (Kafka's kafka-consumer-perf-test); MB = 2^20 bytes")
      .requiredOption('--topic <topic>', 'topic to read from the beginning', parse.topicName)
      .requiredOption('--messages <n>', 'records to read', parse.positiveCount)
      .option('--timeout-ms <ms>', 'fail when no record arrives for this long', parse.milliseconds, 10_000)
      .option(
        '--fetch-max-wait-ms <ms>',
        'longest a fetch waits for data on the leader',
        parse.integerIn(0, 30_000, 'milliseconds'),
        500,
      )
      .option(
        '--fetch-size <bytes>',
        'most bytes per partition in one fetch',
        parse.integerIn(1024, 64 * 1024 * 1024, 'bytes'),
        1024 * 1024,
      )
      .option(
        '--reporting-interval <ms>',
        'plain progress lines this often when stderr is not a terminal',
        parse.milliseconds,
        5000,
      )
      .option('--json', 'print the final figures as one JSON object'),
  ).action((opts: PerfConsumeOptions) => perfConsume(opts))
}

async function perfConsume(opts: PerfConsumeOptions): Promise<void> {
  await withMesh(opts, async ({ mesh, output, signal }) => {
    await checkTopic(mesh.admin(), opts.topic, undefined, signal)
    // Kafka's consumer defaults unless told otherwise (fetch.max.wait.ms 500, max.partition.fetch.bytes 1 MiB).
    const consumer = mesh.consumer({
      autoOffsetReset: 'earliest',
      maxWaitTimeInMs: opts.fetchMaxWaitMs,
      maxBytesPerPartition: opts.fetchSize,
    })
    let records = 0
    let bytes = 0
    let window = { records: 0, bytes: 0, startMs: performance.now() }
    let failure: unknown
    let timedOut = false
    let endMs = 0
    const finished = Promise.withResolvers<void>()
    const progress = startProgress({
      unit: 'records',
      total: opts.messages,
      intervalMs: opts.reportingInterval,
      windowLine: () => {
        const now = performance.now()
        const w = throughputFigures(window.records, window.bytes, (now - window.startMs) / 1000)
        window = { records: 0, bytes: 0, startMs: now }
        return `${records} records consumed, ${w.records_per_s.toLocaleString('en-US')} records/sec (${w.mb_per_s} MB/sec)`
      },
    })
    let idle: NodeJS.Timeout | undefined
    const armIdle = (): void => {
      clearTimeout(idle)
      idle = setTimeout(() => {
        timedOut = true
        finished.resolve()
      }, opts.timeoutMs)
    }
    const onAbort = (): void => finished.resolve()
    signal.addEventListener('abort', onAbort, { once: true })
    const removeCrash = consumer.on('consumer.crash', ({ payload }) => {
      failure = payload.error
      finished.resolve()
    })
    let startMs = 0
    try {
      await consumer.subscribe({ topics: [opts.topic], fromBeginning: true })
      startMs = performance.now()
      window.startMs = startMs
      armIdle()
      await consumer.run({
        eachBatch: async ({ batch }) => {
          if (records >= opts.messages) return
          const take = Math.min(batch.messages.length, opts.messages - records)
          let size = 0
          for (let i = 0; i < take; i++) size += batch.messages[i]!.size
          records += take
          bytes += size
          window.records += take
          window.bytes += size
          progress.update(records)
          armIdle()
          if (records >= opts.messages) {
            endMs = performance.now()
            finished.resolve()
          }
        },
      })
      await finished.promise
    } finally {
      clearTimeout(idle)
      progress.stop()
      signal.removeEventListener('abort', onAbort)
      removeCrash()
      await consumer.disconnect().catch(() => {})
    }
    const figures = throughputFigures(records, bytes, ((endMs || performance.now()) - startMs) / 1000)
    if (opts.json === true) {
      await output.json({ command: 'perf consume', topic: opts.topic, requested_records: opts.messages, ...figures })
    } else await output.line(consumeLine(figures))
    if (failure !== undefined) throw topicFailure(failure, opts.topic)
    if (timedOut)
      throw new CommandFailedError(
        `only ${records} of ${opts.messages} records arrived; none for ${opts.timeoutMs} ms (--timeout-ms)`,
      )
    if (records < opts.messages)
      throw new CommandFailedError(`interrupted after ${records} of ${opts.messages} records`)
  })
}
