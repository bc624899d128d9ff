/**
 * `tributary produce TOPIC`: one record per stdin line (kafka-console-producer, `kcat -P`).
 *
 * Lines are sent in groups (every line that has arrived, up to GROUP_LINES), one send at a time
 * so records keep their input order per partition, while the next group is already being read.
 * On a failure — a send the SDK gave up on, a line without the key separator, an over-long
 * line — the lines before it are still sent, then the command exits 1 saying how many records
 * were acknowledged and which line failed. A summary goes to stderr; stdout stays empty.
 */
import type { Command } from 'commander'
import { CommandFailedError, checkTopic, topicFailure } from './failure.js'
import { lineGroups } from './line-reader.js'
import * as parse from './parse.js'
import { linesToMessages, messageBytes, type RecordShape } from './records.js'
import { type PeerOptions, peerOptions, withMesh } from './run-command.js'

/** Lines per send: large enough that a pipe of 10,000 lines is a few sends. */
const GROUP_LINES = 5000
const DEFAULT_MAX_LINE_BYTES = 1024 * 1024

interface ProduceOptions extends PeerOptions {
  keySeparator?: string
  acks: parse.AcksOption
  headers?: Record<string, string>
  partition?: number
  maxLineBytes: number
}

export function registerProduce(program: Command): void {
  peerOptions(
    program
      .command('produce')
      .description('send each line of stdin as a record to TOPIC (a summary goes to stderr)')
      .argument('<topic>', 'topic to write to', parse.topicName)
      .option(
        '--key-separator <sep>',
        'the key is what comes before the first SEP on a line (\\t understood)',
        parse.separator,
      )
      .option('--acks <acks>', '0 (none), 1 (leader appended) or all (committed by a majority)', parse.acks, 'all')
      .option('--headers <k=v,...>', 'headers added to every record', parse.headers)
      .option(
        '--partition <n>',
        'send every record to this partition (default: by key, Kafka’s murmur2)',
        parse.partition,
      )
      .option(
        '--max-line-bytes <n>',
        'longest line accepted',
        parse.integerIn(1, 64 * 1024 * 1024, 'bytes'),
        DEFAULT_MAX_LINE_BYTES,
      ),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  printf "u1:hello\\nu2:world\\n" | tributary produce orders --key-separator :\n' +
        '  tributary produce orders --headers source=cli,env=dev < lines.txt',
    )
    .action((topic: string, opts: ProduceOptions) => produce(topic, opts))
}

async function produce(topic: string, opts: ProduceOptions): Promise<void> {
  const shape: RecordShape = {
    keySeparator: opts.keySeparator === undefined ? undefined : Buffer.from(opts.keySeparator),
    headers: opts.headers,
    partition: opts.partition,
  }
  await withMesh(opts, async ({ mesh, output, signal }) => {
    await checkTopic(mesh.admin(), topic, opts.partition, signal)
    // Idempotence needs acks=all; with 0 or 1 the user chose speed over exactly-once.
    const producer = mesh.producer({ idempotent: opts.acks === 'all' })
    const started = performance.now()
    let sent = 0
    let bytes = 0
    let lineNumber = 0
    let failure: Error | undefined
    const groups = lineGroups(process.stdin, { maxLines: GROUP_LINES, maxLineBytes: opts.maxLineBytes })
    const interrupted = new Promise<'interrupted'>((resolve) => {
      if (signal.aborted) resolve('interrupted')
      signal.addEventListener('abort', () => resolve('interrupted'), { once: true })
    })
    try {
      let next = groups.next()
      for (;;) {
        const step = await Promise.race([next, interrupted])
        if (step === 'interrupted') {
          failure = new CommandFailedError('interrupted; the rest of stdin was not read')
          break
        }
        if (step.done === true) break
        const lines = step.value
        // Read ahead while this group is sent.
        next = groups.next()
        const { messages, error } = linesToMessages(lines, lineNumber + 1, shape)
        lineNumber += lines.length
        if (messages.length > 0) {
          try {
            await producer.send({ topic, acks: opts.acks === 'all' ? -1 : opts.acks, messages })
          } catch (err) {
            failure = topicFailure(err, topic)
            break
          }
          sent += messages.length
          bytes += messageBytes(messages)
        }
        if (error !== undefined) {
          failure = error
          break
        }
      }
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err))
    } finally {
      await groups.return(undefined).catch(() => {})
      await producer.disconnect().catch(() => {})
    }
    const seconds = (performance.now() - started) / 1000
    const rate = seconds > 0 ? Math.round(sent / seconds).toLocaleString('en-US') : '0'
    output.note(
      `tributary produce: ${sent} record${sent === 1 ? '' : 's'} (${bytes.toLocaleString('en-US')} bytes) ` +
        `sent to ${topic}, acks=${opts.acks}, in ${seconds.toFixed(2)} s (${rate} records/s)`,
    )
    if (failure !== undefined) {
      throw new CommandFailedError(`${failure.message} (${sent} records before it were sent)`, { cause: failure })
    }
  })
}
