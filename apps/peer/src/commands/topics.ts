/**
 * `tributary topics create|list|describe|alter|delete` (kafka-topics, kafka-configs). Results go
 * to stdout as text or, with `--format json`, as one JSON document.
 */
import { ConfigResourceTypes } from '@tributary/client'
import type { Command } from 'commander'
import { CommandFailedError, topicFailure } from './failure.js'
import { jsonReplacer, table } from './output.js'
import * as parse from './parse.js'
import { type PeerOptions, peerOptions, withMesh } from './run-command.js'

interface FormatOptions extends PeerOptions {
  format: parse.Format
}

/** Peer ids in tables: the last 8 characters, as `tributary cluster` shows them (json has them whole). */
export function shortId(peerId: string): string {
  return peerId === '' ? '-' : peerId.length <= 10 ? peerId : `…${peerId.slice(-8)}`
}

const ids = (list: readonly string[]): string => (list.length === 0 ? '-' : list.map(shortId).join(','))

function formatOption(command: Command): Command {
  return command.option('--format <format>', 'text or json', parse.format, 'text')
}

function withTopicOptions(command: Command): Command {
  return peerOptions(formatOption(command))
}

export function registerTopics(program: Command): void {
  const topics = program
    .command('topics')
    .description('create, list, describe, alter and delete topics')
    .addHelpText(
      'after',
      '\nExample:\n  tributary topics create orders --partitions 6 --replication-factor 3 --config retention.ms=86400000',
    )

  withTopicOptions(
    topics
      .command('create')
      .description('create a topic')
      .argument('<topic>', 'topic name', parse.topicName)
      .option('--partitions <n>', 'number of partitions', parse.integerIn(1, 10_000, 'a partition count'), 1)
      .option(
        '--replication-factor <n>',
        'replicas per partition (voting peers)',
        parse.integerIn(1, 100, 'a replica count'),
        1,
      )
      .option('--config <key=value>', 'a topic config, e.g. retention.ms=86400000 (repeatable)', parse.config)
      .option('--if-not-exists', 'succeed when the topic already exists'),
  ).action(
    (
      topic: string,
      opts: FormatOptions & {
        partitions: number
        replicationFactor: number
        config?: Record<string, string>
        ifNotExists?: boolean
      },
    ) =>
      withMesh(opts, async ({ mesh, output, signal }) => {
        const configEntries = Object.entries(opts.config ?? {}).map(([name, value]) => ({ name, value }))
        const created = await mesh.admin().createTopics({
          topics: [{ topic, numPartitions: opts.partitions, replicationFactor: opts.replicationFactor, configEntries }],
          signal,
        })
        if (!created && opts.ifNotExists !== true)
          throw new CommandFailedError(`topic '${topic}' already exists (--if-not-exists accepts that)`)
        if (opts.format === 'json') await output.json({ topic, created })
        else await output.line(created ? `Created topic ${topic}.` : `Topic ${topic} already exists.`)
      }),
  )

  withTopicOptions(topics.command('list').description('list topics')).action((opts: FormatOptions) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      const names = (await mesh.admin().listTopics({ signal })).sort()
      if (opts.format === 'json') await output.json(names)
      else if (names.length > 0) await output.line(names.join('\n'))
    }),
  )

  withTopicOptions(
    topics
      .command('describe')
      .description('partitions of topics: leader, epoch, voters, observers, in-sync voters, offsets')
      .argument('[topics...]', 'topics to describe (default: all)', parse.topicNames),
  ).action((given: string[] | undefined, opts: FormatOptions) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      const names = given ?? []
      const described = await mesh
        .admin()
        .describeTopics(names.length > 0 ? { topics: names, signal } : { signal })
        .catch((err: unknown) => {
          throw names.length === 1 ? topicFailure(err, names[0]!) : err
        })
      described.sort((a, b) => a.name.localeCompare(b.name))
      if (opts.format === 'json') {
        await output.line(JSON.stringify(described, jsonReplacer))
        return
      }
      const blocks = described.map((t) => {
        const configs = Object.entries(t.configs)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')
        const head =
          `Topic: ${t.name}\tTopicId: ${t.topicId}\tPartitionCount: ${t.partitions.length}\t` +
          `ReplicationFactor: ${t.replicationFactor}\tConfigs: ${configs}`
        const rows = [...t.partitions]
          .sort((a, b) => a.partition - b.partition)
          .map((p) => [
            String(p.partition),
            shortId(p.leader),
            String(p.leaderEpoch),
            ids(p.voters),
            ids(p.observers),
            ids(p.inSyncVoters),
            p.logStartOffset,
            p.highWatermark,
            p.logEndOffset,
          ])
        const header = ['Partition', 'Leader', 'Epoch', 'Voters', 'Observers', 'InSync', 'LogStart', 'HW', 'LogEnd']
        return `${head}\n${table(header, rows)}`
      })
      if (blocks.length > 0) await output.line(blocks.join('\n\n'))
    }),
  )

  withTopicOptions(
    topics
      .command('alter')
      .description('set topic configs (others stay as they are)')
      .argument('<topic>', 'topic name', parse.topicName)
      .requiredOption('--config <key=value>', 'a topic config to set (repeatable)', parse.config),
  ).action((topic: string, opts: FormatOptions & { config: Record<string, string> }) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      const configEntries = Object.entries(opts.config).map(([name, value]) => ({ name, value }))
      await mesh
        .admin()
        .alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries }], signal })
        .catch((err: unknown) => {
          throw topicFailure(err, topic)
        })
      if (opts.format === 'json') await output.json({ topic, configs: opts.config })
      else
        await output.line(
          `Updated configs of topic ${topic}: ${configEntries.map((c) => `${c.name}=${c.value}`).join(', ')}.`,
        )
    }),
  )

  withTopicOptions(
    topics
      .command('delete')
      .description('delete a topic and its records')
      .argument('<topic>', 'topic name', parse.topicName),
  ).action((topic: string, opts: FormatOptions) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      await mesh
        .admin()
        .deleteTopics({ topics: [topic], signal })
        .catch((err: unknown) => {
          throw topicFailure(err, topic)
        })
      if (opts.format === 'json') await output.json({ topic, deleted: true })
      else await output.line(`Deleted topic ${topic}.`)
    }),
  )
}
