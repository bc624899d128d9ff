/**
 * `tributary consume TOPIC`: prints records to stdout, one per line (kafka-console-consumer,
 * `kcat -C`). Without `--partition` every partition of the topic is read (order holds within a
 * partition); with it, that partition from `--offset`. It runs until `--max-messages` records
 * were printed, `--timeout-ms` passed without a record, Ctrl-C / SIGTERM, or stdout's reader
 * left (`| head`) — each a normal end, exit 0 — and prints the count to stderr. With `--group`
 * it is a member of that consumer group: it reads the partitions the group gives it, from the
 * group's committed offsets, and commits what it printed (kafka-console-consumer --group).
 */
import { type Command, Option } from 'commander'
import { checkTopic, topicFailure } from './failure.js'
import { formatJson, formatText, type TextStyle } from './message-format.js'
import * as parse from './parse.js'
import { type PeerOptions, peerOptions, withMesh } from './run-command.js'

const FETCH_MAX_WAIT_MS = 500

interface ConsumeOptions extends PeerOptions {
  fromBeginning?: boolean
  partition?: number
  offset?: parse.OffsetOption
  maxMessages?: number
  format: parse.Format
  printKey?: boolean
  keySeparator: string
  timeoutMs?: number
  group?: string
}

export function registerConsume(program: Command): void {
  peerOptions(
    program
      .command('consume')
      .description('print the records of TOPIC to stdout, one per line')
      .argument('<topic>', 'topic to read', parse.topicName)
      .addOption(
        new Option(
          '--from-beginning',
          'start at the oldest record (default: only records that arrive from now)',
        ).conflicts('offset'),
      )
      .option('--partition <n>', 'read only this partition', parse.partition)
      .option('--offset <offset>', 'where to start: earliest, latest, or an offset (needs --partition)', parse.offset)
      .option('--max-messages <n>', 'exit after printing N records', parse.positiveCount)
      .addOption(
        new Option('--format <format>', 'text: the value; json: one object per record')
          .default('text')
          .argParser(parse.format),
      )
      .option('--print-key', 'text format: print the key and --key-separator before the value')
      .option(
        '--key-separator <sep>',
        'text format: what separates key and value (\\t understood)',
        parse.separator,
        '\t',
      )
      .option('--timeout-ms <ms>', 'exit when no record arrived for this long', parse.milliseconds)
      .addOption(
        new Option('--group <group>', 'read as a member of this consumer group, from its committed offsets').conflicts([
          'partition',
          'offset',
        ]),
      ),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  tributary consume orders --from-beginning --max-messages 10\n' +
        '  tributary consume orders --partition 2 --offset 1000 --format json | jq .value',
    )
    .action(async function (this: Command, topic: string, opts: ConsumeOptions) {
      if (typeof opts.offset === 'number' && opts.partition === undefined) {
        this.error('error: --offset with an offset number needs --partition (offsets are per partition)', {
          exitCode: 2,
          code: 'tributary.usage',
        })
      }
      await consume(topic, opts)
    })
}

/** The SDK's offset for a start position: -2 earliest, -1 latest, else the offset. */
function startOffset(opts: ConsumeOptions): string {
  if (opts.fromBeginning === true || opts.offset === 'earliest') return '-2'
  if (opts.offset === undefined || opts.offset === 'latest') return '-1'
  return String(opts.offset)
}

async function consume(topic: string, opts: ConsumeOptions): Promise<void> {
  const style: TextStyle = { printKey: opts.printKey === true, keySeparator: opts.keySeparator }
  const max = opts.maxMessages ?? Number.POSITIVE_INFINITY
  await withMesh(opts, async ({ mesh, output, signal }) => {
    await checkTopic(mesh.admin(), topic, opts.partition, signal)
    const fromStart = opts.fromBeginning === true || opts.offset === 'earliest'
    // Kafka's console consumer waits at most fetch.max.wait.ms = 500 on the leader (the SDK's default is KafkaJS's 5 s).
    const grouped = opts.group !== undefined
    const consumer = mesh.consumer({
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      ...(fromStart ? { autoOffsetReset: 'earliest' as const } : {}),
      ...(grouped ? { groupId: opts.group } : {}),
    })
    let printed = 0
    let failure: unknown
    const finished = Promise.withResolvers<void>()
    let idle: NodeJS.Timeout | undefined
    const armIdle = (): void => {
      if (opts.timeoutMs === undefined) return
      clearTimeout(idle)
      idle = setTimeout(() => finished.resolve(), opts.timeoutMs)
    }
    const onAbort = (): void => finished.resolve()
    signal.addEventListener('abort', onAbort, { once: true })
    const removeCrash = consumer.on('consumer.crash', ({ payload }) => {
      failure = payload.error
      finished.resolve()
    })
    try {
      if (opts.partition === undefined) await consumer.subscribe({ topics: [topic], fromBeginning: fromStart })
      else consumer.assign([{ topic, partition: opts.partition, offset: startOffset(opts) }])
      armIdle()
      await consumer.run({
        // In a group, only printed records count as processed (so they alone are committed).
        eachBatchAutoResolve: !grouped,
        eachBatch: async ({ batch, resolveOffset }) => {
          if (printed >= max || signal.aborted) return
          const take = Math.min(batch.messages.length, max - printed)
          if (take === 0) return
          let text = ''
          for (let i = 0; i < take; i++) {
            const m = batch.messages[i]!
            text += `${opts.format === 'json' ? formatJson(batch.topic, batch.partition, m) : formatText(m, style)}\n`
          }
          printed += take
          armIdle()
          await output.write(text)
          if (grouped) resolveOffset(batch.messages[take - 1]!.offset)
          if (printed >= max) finished.resolve()
        },
      })
      await finished.promise
    } finally {
      clearTimeout(idle)
      signal.removeEventListener('abort', onAbort)
      removeCrash()
      await consumer.disconnect().catch(() => {})
    }
    if (failure !== undefined) throw topicFailure(failure, topic)
    output.note(`Processed a total of ${printed} message${printed === 1 ? '' : 's'}`)
  })
}
