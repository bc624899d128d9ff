/**
 * `tributary cluster`: the peers of the mesh as the answering peer sees them (id, addresses,
 * role, storage, status) and every partition's leader, epoch, voters, in-sync voters and
 * observers, with each follower's lag (records behind the leader's log end, as the leader saw
 * at the follower's last fetch) and `Uncommitted`, the records the leader holds beyond the high
 * watermark (not yet on a majority).
 */
import type { Command } from 'commander'
import { jsonReplacer, table } from './output.js'
import * as parse from './parse.js'
import { type PeerOptions, peerOptions, withMesh } from './run-command.js'
import { shortId } from './topics.js'

interface ClusterOptions extends PeerOptions {
  format: parse.Format
}

function minus(a: string, b: string): string {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return '-'
  const d = BigInt(a) - BigInt(b)
  return String(d < 0n ? 0n : d)
}

export function registerCluster(program: Command): void {
  peerOptions(
    program
      .command('cluster')
      .description(
        'peers (id, addresses, role, storage, status) and partitions (leader, epoch, voters, in-sync, follower lag)',
      )
      .option('--format <format>', 'text or json', parse.format, 'text'),
  ).action((opts: ClusterOptions) =>
    withMesh(opts, async ({ mesh, output, signal }) => {
      const admin = mesh.admin()
      const cluster = await admin.describeCluster({ signal })
      const topics = (await admin.describeTopics({ signal })).sort((a, b) => a.name.localeCompare(b.name))
      const partitions = topics.flatMap((t) =>
        [...t.partitions]
          .sort((a, b) => a.partition - b.partition)
          .map((p) => ({
            topic: t.name,
            ...p,
            outOfSync: p.voters.filter((v) => !p.inSyncVoters.includes(v)),
            followerLag: p.replicas.map((r) => ({ peerId: r.peerId, voter: r.voter, lag: r.lag })),
            uncommitted: minus(p.logEndOffset, p.highWatermark),
          })),
      )
      if (opts.format === 'json') {
        await output.line(
          JSON.stringify({ answeredBy: cluster.peerId, peers: cluster.peers, partitions }, jsonReplacer),
        )
        return
      }
      const peers = [...cluster.peers].sort((a, b) => a.peerId.localeCompare(b.peerId))
      const peerRows = peers.map((p) => [
        shortId(p.peerId) + (p.peerId === cluster.peerId ? '*' : ''),
        p.voter ? 'voter' : 'observer',
        p.storage,
        p.status,
        p.addresses.find((a) => !/\/wss?(\/|$)/.test(a)) ?? p.addresses[0] ?? '-',
      ])
      const partitionRows = partitions.map((p) => [
        `${p.topic}-${p.partition}`,
        shortId(p.leader),
        String(p.leaderEpoch),
        p.voters.map(shortId).join(',') || '-',
        p.inSyncVoters.map(shortId).join(',') || '-',
        p.outOfSync.map(shortId).join(',') || '-',
        p.followerLag
          .map((f) => `${shortId(f.peerId)}${f.voter ? '' : '(obs)'}:${f.lag === '-1' ? '?' : f.lag}`)
          .join(',') || '-',
        p.highWatermark,
        p.logEndOffset,
        p.uncommitted,
      ])
      const text = [
        `Peers (${peers.length}; * answered this request):`,
        table(['Peer', 'Role', 'Storage', 'Status', 'Address'], peerRows),
        '',
        `Partitions (${partitions.length}):`,
        table(
          [
            'Partition',
            'Leader',
            'Epoch',
            'Voters',
            'InSync',
            'OutOfSync',
            'FollowerLag',
            'HW',
            'LogEnd',
            'Uncommitted',
          ],
          partitionRows,
        ),
      ]
      await output.line(text.join('\n'))
    }),
  )
}
