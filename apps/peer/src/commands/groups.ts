/**
 * `tributary groups list|describe|reset-offsets|delete` (kafka-consumer-groups). Results go to
 * stdout as text or, with `--format json`, as one JSON document.
 */
import { type Command, InvalidArgumentError } from 'commander'
import { jsonReplacer, table } from './output.js'
import * as parse from './parse.js'
import { type PeerOptions, peerOptions, withMesh } from './run-command.js'

interface FormatOptions extends PeerOptions {
  format: parse.Format
}

const groupId = (value: string): string => {
  if (value.length === 0 || value.length > 255) throw new InvalidArgumentError('a group id has 1 to 255 characters')
  return value
}

function withGroupOptions(command: Command): Command {
  return peerOptions(command.option('--format <format>', 'text or json', parse.format, 'text'))
}

export function registerGroups(program: Command): void {
  const groups = program
    .command('groups')
    .description('list, describe, reset the offsets of, and delete consumer groups')
    .addHelpText(
      'after',
      '\nExamples:\n  tributary groups describe billing\n' +
        '  tributary groups reset-offsets billing --topic orders --to-earliest',
    )

  withGroupOptions(groups.command('list').description('list consumer groups')).action((opts: FormatOptions) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      const { groups: listed } = await mesh.admin().listGroups({ signal })
      if (opts.format === 'json') await output.json(listed)
      else if (listed.length > 0)
        await output.line(
          table(
            ['Group', 'State', 'Members'],
            listed.map((g) => [g.groupId, g.state, String(g.members)]),
          ),
        )
    }),
  )

  withGroupOptions(
    groups
      .command('describe')
      .description('members, assignments, committed offsets and lag of a group')
      .argument('<group>', 'group id', groupId),
  ).action((group: string, opts: FormatOptions) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      const d = await mesh.admin().describeGroup(group, { signal })
      if (opts.format === 'json') {
        await output.line(JSON.stringify(d, jsonReplacer))
        return
      }
      const owner = new Map<string, string>()
      for (const m of d.members)
        for (const t of m.assignment) for (const p of t.partitions) owner.set(`${t.topic}/${p}`, m.memberId)
      const head = `Group: ${d.groupId}\tState: ${d.state}\tGeneration: ${d.generation}\tAssignor: ${d.protocol || '-'}\tMembers: ${d.members.length}`
      const rows = d.offsets.map((o) => [
        o.topic,
        String(o.partition),
        o.offset === '-1' ? '-' : o.offset,
        o.logEndOffset,
        o.lag,
        owner.get(`${o.topic}/${o.partition}`) ?? '-',
      ])
      const members = d.members.map((m) => [
        m.memberId,
        m.groupInstanceId ?? '-',
        m.clientId,
        m.assignment.map((t) => `${t.topic}:${t.partitions.join(',')}`).join(' ') || '-',
      ])
      await output.line(
        `${head}\n${table(['Topic', 'Partition', 'Committed', 'LogEnd', 'Lag', 'Member'], rows)}` +
          (members.length > 0 ? `\n\n${table(['Member', 'Instance', 'Client', 'Assignment'], members)}` : ''),
      )
    }),
  )

  withGroupOptions(
    groups
      .command('reset-offsets')
      .description('set the committed offsets of a group with no members')
      .argument('<group>', 'group id', groupId)
      .requiredOption('--topic <topic>', 'topic whose offsets to reset', parse.topicName)
      .option('--to-earliest', 'to the oldest record of every partition')
      .option('--to-latest', 'to the end of every partition (the default)')
      .option('--partition <n>', 'with --to-offset: this partition only', parse.partition)
      .option(
        '--to-offset <offset>',
        'to this offset (needs --partition)',
        parse.integerIn(0, Number.MAX_SAFE_INTEGER, 'an offset'),
      ),
  ).action(function (
    this: Command,
    group: string,
    opts: FormatOptions & {
      topic: string
      toEarliest?: boolean
      toLatest?: boolean
      partition?: number
      toOffset?: number
    },
  ) {
    const chosen = [opts.toEarliest, opts.toLatest, opts.toOffset !== undefined].filter(Boolean).length
    if (chosen > 1) this.error('error: choose one of --to-earliest, --to-latest, --to-offset', { exitCode: 2 })
    if ((opts.toOffset === undefined) !== (opts.partition === undefined))
      this.error('error: --to-offset and --partition go together', { exitCode: 2 })
    return withMesh(opts, async ({ mesh, output, signal }) => {
      const admin = mesh.admin()
      if (opts.toOffset !== undefined && opts.partition !== undefined) {
        await admin.setOffsets({
          groupId: group,
          topic: opts.topic,
          partitions: [{ partition: opts.partition, offset: opts.toOffset }],
          signal,
        })
      } else await admin.resetOffsets({ groupId: group, topic: opts.topic, earliest: opts.toEarliest === true, signal })
      const [offsets] = await admin.fetchOffsets({ groupId: group, topics: [opts.topic], signal })
      if (opts.format === 'json') await output.json({ groupId: group, ...offsets })
      else
        await output.line(
          table(
            ['Topic', 'Partition', 'Committed'],
            (offsets?.partitions ?? []).map((p) => [opts.topic, String(p.partition), p.offset]),
          ),
        )
    })
  })

  withGroupOptions(
    groups
      .command('delete')
      .description('delete a group with no members, and its committed offsets')
      .argument('<group>', 'group id', groupId),
  ).action((group: string, opts: FormatOptions) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      await mesh.admin().deleteGroups([group], { signal })
      if (opts.format === 'json') await output.json({ groupId: group, deleted: true })
      else await output.line(`Deleted group ${group}.`)
    }),
  )
}
