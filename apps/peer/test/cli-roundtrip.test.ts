/**
 * The `tributary` commands end to end against a real peer process on loopback: topics created,
 * described, altered and deleted; 10,000 lines piped into `produce` with keys and headers and
 * read back by `consume --from-beginning --max-messages 10000`; json output; unknown topics;
 * a failing line that loses none of the lines before it; a consumer stopped by SIGTERM or by its
 * reader leaving; `cluster`; and `perf produce|consume --json`.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PeerProcess, startPeerProcess, stopAll, waitFor } from '../../../test/helpers/peer-process.ts'
import { killAllCli, runCli, startCli } from './helpers/run-cli.ts'

let root: string
let peer: PeerProcess
/** Finds the peer the way a user's shell would: through the data dir's peer.json. */
let at: string[]

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-cli-roundtrip-'))
  peer = await startPeerProcess(join(root, 'peer'))
  at = ['--data', peer.dataDir]
}, 60_000)

afterAll(async () => {
  killAllCli()
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

interface JsonRecord {
  topic: string
  partition: number
  offset: number
  timestamp: number
  key: string | null
  value: string | null
  headers: Record<string, string | null>
}

const parseLines = (stdout: string): JsonRecord[] =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JsonRecord)

describe('cli > end to end', () => {
  it('creates, lists, describes, alters and deletes topics', async () => {
    const created = await runCli([
      'topics',
      'create',
      'admin-t',
      '--partitions',
      '3',
      '--config',
      'retention.ms=3600000',
      ...at,
    ])
    expect(created.stdout).toBe('Created topic admin-t.\n')
    expect(created.status).toBe(0)
    const again = await runCli(['topics', 'create', 'admin-t', ...at])
    expect(again.status).toBe(1)
    expect(again.stderr).toMatch(/already exists/)
    expect((await runCli(['topics', 'create', 'admin-t', '--if-not-exists', ...at])).status).toBe(0)
    expect((await runCli(['topics', 'list', ...at])).stdout.split('\n')).toContain('admin-t')
    const text = await runCli(['topics', 'describe', 'admin-t', ...at])
    expect(text.status).toBe(0)
    expect(text.stdout).toMatch(
      /Topic: admin-t\tTopicId: \w+\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: retention.ms=3600000/,
    )
    expect(text.stdout).toMatch(/^Partition +Leader +Epoch +Voters +Observers +InSync +LogStart +HW +LogEnd$/m)
    const json = await runCli(['topics', 'describe', 'admin-t', '--format', 'json', ...at])
    const [described] = JSON.parse(json.stdout) as Array<{
      name: string
      partitions: Array<{ leader: string; voters: string[] }>
    }>
    expect(described!.name).toBe('admin-t')
    expect(described!.partitions).toHaveLength(3)
    for (const p of described!.partitions) expect([p.leader, p.voters]).toEqual([peer.peerId, [peer.peerId]])
    const altered = await runCli(['topics', 'alter', 'admin-t', '--config', 'retention.ms=60000', ...at])
    expect(altered.status).toBe(0)
    expect((await runCli(['topics', 'describe', 'admin-t', ...at])).stdout).toMatch(/Configs: retention.ms=60000/)
    const badConfig = await runCli(['topics', 'alter', 'admin-t', '--config', 'no.such.config=1', ...at])
    expect(badConfig.status).toBe(1)
    expect(badConfig.stderr).toMatch(/no.such.config/)
    expect((await runCli(['topics', 'delete', 'admin-t', ...at])).status).toBe(0)
    await waitFor(
      async () => !(await runCli(['topics', 'list', ...at])).stdout.includes('admin-t'),
      'admin-t to be gone',
    )
    const gone = await runCli(['topics', 'describe', 'admin-t', ...at])
    expect(gone.status).toBe(1)
    expect(gone.stderr).toMatch(/topic 'admin-t' does not exist/)
  }, 120_000)

  it('pipes 10,000 lines with keys and headers through produce and reads them back in order', async () => {
    expect((await runCli(['topics', 'create', 'lines', '--partitions', '3', ...at])).status).toBe(0)
    // 100 keys: per key (one partition) the values must come back in input order. Some values
    // are empty, hold the separator again, or are not ASCII.
    const lines = Array.from({ length: 10_000 }, (_, i) => {
      const value = i % 997 === 0 ? '' : i % 101 === 0 ? `a:b:${i}` : `välue-${i}`
      return `key-${i % 100}:${value}`
    })
    const produced = await runCli(
      ['produce', 'lines', '--key-separator', ':', '--headers', 'source=cli,run=1', ...at],
      {
        input: `${lines.join('\n')}\n`,
      },
    )
    expect(produced.stderr).toMatch(/10000 records .* sent to lines, acks=all/)
    expect(produced.status).toBe(0)
    expect(produced.stdout).toBe('')
    const consumed = await runCli([
      'consume',
      'lines',
      '--from-beginning',
      '--max-messages',
      '10000',
      '--format',
      'json',
      ...at,
    ])
    expect(consumed.status).toBe(0)
    expect(consumed.stderr).toMatch(/Processed a total of 10000 messages/)
    const records = parseLines(consumed.stdout)
    expect(records).toHaveLength(10_000)
    const byKey = new Map<string, string[]>()
    const partitionOf = new Map<string, number>()
    for (const r of records) {
      expect(r.topic).toBe('lines')
      expect(r.headers).toEqual({ source: 'cli', run: '1' })
      expect(Number.isInteger(r.offset) && Number.isInteger(r.timestamp)).toBe(true)
      expect(partitionOf.get(r.key!) ?? r.partition).toBe(r.partition)
      partitionOf.set(r.key!, r.partition)
      byKey.set(r.key!, [...(byKey.get(r.key!) ?? []), r.value!])
    }
    for (let k = 0; k < 100; k++) {
      const expected = lines.filter((l) => l.startsWith(`key-${k}:`)).map((l) => l.slice(`key-${k}:`.length))
      expect(byKey.get(`key-${k}`), `key-${k}`).toEqual(expected)
    }
    // Keys spread over every partition (murmur2), and offsets per partition are in order.
    expect(new Set(partitionOf.values()).size).toBe(3)
    for (let p = 0; p < 3; p++) {
      const offsets = records.filter((r) => r.partition === p).map((r) => r.offset)
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b))
    }
    // Text format, key printed: the same lines come back for one partition, in order.
    const p0 = records.filter((r) => r.partition === 0)
    const text = await runCli(
      ['consume', 'lines', '--partition', '0', '--offset', 'earliest', '--max-messages', String(p0.length)].concat([
        '--print-key',
        '--key-separator',
        ':',
        ...at,
      ]),
    )
    expect(text.status).toBe(0)
    expect(text.stdout).toBe(p0.map((r) => `${r.key}:${r.value}\n`).join(''))
    // From an offset: exactly the records from there on.
    const from = p0[10]!.offset
    const tail = await runCli([
      'consume',
      'lines',
      '--partition',
      '0',
      '--offset',
      String(from),
      '--max-messages',
      '5',
      '--format',
      'json',
      ...at,
    ])
    expect(parseLines(tail.stdout).map((r) => r.offset)).toEqual(p0.slice(10, 15).map((r) => r.offset))
  }, 180_000)

  it('sends the lines before a bad line, then exits 1 naming it', async () => {
    expect((await runCli(['topics', 'create', 'partial', ...at])).status).toBe(0)
    const produced = await runCli(['produce', 'partial', '--key-separator', '=', ...at], {
      input: 'a=1\nb=2\nno separator\nc=3\n',
    })
    expect(produced.status).toBe(1)
    expect(produced.stderr).toMatch(/line 3 has no key separator "=" .*\(2 records before it were sent\)/)
    const consumed = await runCli([
      'consume',
      'partial',
      '--from-beginning',
      '--max-messages',
      '2',
      '--format',
      'json',
      ...at,
    ])
    const records = parseLines(consumed.stdout)
    expect(records.map((r) => `${r.key}=${r.value}`)).toEqual(['a=1', 'b=2'])
    // Nothing after the bad line was sent: the log ends right after b=2.
    const described = await runCli(['topics', 'describe', 'partial', '--format', 'json', ...at])
    const [topic] = JSON.parse(described.stdout) as Array<{ partitions: Array<{ logEndOffset: string }> }>
    expect(topic!.partitions[0]!.logEndOffset).toBe(String(records[1]!.offset + 1))
  }, 60_000)

  it('exits 1 with a clear message for an unknown topic or partition', async () => {
    const produce = await runCli(['produce', 'no-such-topic', ...at], { input: 'x\n' })
    expect(produce.status).toBe(1)
    expect(produce.stderr).toBe(
      "tributary: topic 'no-such-topic' does not exist; create it with `tributary topics create no-such-topic`\n",
    )
    const consume = await runCli(['consume', 'no-such-topic', ...at])
    expect(consume.status).toBe(1)
    expect(consume.stderr).toMatch(/topic 'no-such-topic' does not exist/)
    expect((await runCli(['topics', 'create', 'one-part', ...at])).status).toBe(0)
    const partition = await runCli(['consume', 'one-part', '--partition', '3', ...at])
    expect(partition.status).toBe(1)
    expect(partition.stderr).toMatch(/topic 'one-part' has 1 partition \(0-0\); there is no partition 3/)
  }, 60_000)

  it('stops a consumer cleanly on SIGTERM and when its reader goes away', async () => {
    expect((await runCli(['topics', 'create', 'stream', ...at])).status).toBe(0)
    const lines = Array.from({ length: 2000 }, (_, i) => `r${i}`).join('\n')
    expect((await runCli(['produce', 'stream', ...at], { input: lines })).status).toBe(0)
    const follower = startCli(['consume', 'stream', '--from-beginning', ...at])
    await waitFor(() => follower.stdout().includes('r1999\n'), 'the consumer to print every record', 30_000)
    follower.proc.kill('SIGTERM')
    const stopped = await follower.done
    expect(stopped.status).toBe(0)
    expect(stopped.stderr).toMatch(/Processed a total of 2000 messages/)
    // `| head -1`: the reader closes after the first line. Like any Unix tool the consumer learns
    // it on its next write (EPIPE), so more records arrive; it must then end, not fail.
    const piped = startCli(['consume', 'stream', '--from-beginning', ...at])
    await waitFor(() => piped.stdout().length > 0, 'the first record', 30_000)
    piped.proc.stdout!.destroy()
    expect((await runCli(['produce', 'stream', ...at], { input: 'after\n' })).status).toBe(0)
    const ended = await piped.done
    expect(ended.status).toBe(0)
    expect(ended.stderr).not.toMatch(/EPIPE|Error/)
  }, 90_000)

  it('describes the cluster: peers with role, storage and status; partitions with leaders', async () => {
    const text = await runCli(['cluster', ...at])
    expect(text.status).toBe(0)
    expect(text.stdout).toMatch(new RegExp(`…${peer.peerId.slice(-8)}\\* +voter +fs +alive +/ip4/127.0.0.1/tcp/`))
    expect(text.stdout).toMatch(/^lines-0 +…\w{8} +\d+ /m)
    const json = JSON.parse((await runCli(['cluster', '--format', 'json', ...at])).stdout) as {
      answeredBy: string
      peers: Array<{ peerId: string; voter: boolean; status: string }>
      partitions: Array<{ topic: string; partition: number; leader: string; uncommitted: string }>
    }
    expect(json.answeredBy).toBe(peer.peerId)
    expect(json.peers).toEqual([expect.objectContaining({ peerId: peer.peerId, voter: true, status: 'alive' })])
    expect(json.partitions.filter((p) => p.topic === 'lines').map((p) => [p.partition, p.leader])).toEqual([
      [0, peer.peerId],
      [1, peer.peerId],
      [2, peer.peerId],
    ])
  }, 60_000)

  it('runs perf produce and perf consume and reports their figures as json', async () => {
    expect((await runCli(['topics', 'create', 'perf', '--partitions', '2', ...at])).status).toBe(0)
    const produced = await runCli([
      'perf',
      'produce',
      '--topic',
      'perf',
      '--num-records',
      '20000',
      '--record-size',
      '100',
      '--json',
      ...at,
    ])
    expect(produced.status).toBe(0)
    const p = JSON.parse(produced.stdout) as Record<string, number>
    expect(p.records).toBe(20_000)
    expect(p.bytes).toBe(2_000_000)
    expect(p.records_per_s).toBeGreaterThan(0)
    expect(p.latency_p50_ms).toBeLessThanOrEqual(p.latency_p99_ms!)
    expect(p.latency_p99_ms).toBeLessThanOrEqual(p.latency_max_ms!)
    const consumed = await runCli(['perf', 'consume', '--topic', 'perf', '--messages', '20000', '--json', ...at])
    expect(consumed.status).toBe(0)
    const c = JSON.parse(consumed.stdout) as Record<string, number>
    expect([c.records, c.bytes]).toEqual([20_000, 2_000_000])
    // Plain lines (not a bar) when stderr is not a terminal, and the final line on stdout.
    const plain = await runCli([
      'perf',
      'produce',
      '--topic',
      'perf',
      '--num-records',
      '100',
      '--record-size',
      '10',
      ...at,
    ])
    expect(plain.stdout).toMatch(/^100 records sent, [\d,.]+ records\/sec \([\d.]+ MB\/sec\), .* ms 99\.9th\.\n$/)
    // Asking for more than the topic holds: the figures so far, then exit 1 after the idle timeout.
    const short = await runCli([
      'perf',
      'consume',
      '--topic',
      'perf',
      '--messages',
      '50000',
      '--timeout-ms',
      '3000',
      '--json',
      ...at,
    ])
    expect(short.status).toBe(1)
    const got = (JSON.parse(short.stdout) as { records: number }).records
    expect(got).toBeLessThanOrEqual(20_100) // all of them, unless a fetch was slower than the timeout
    expect(short.stderr).toContain(`only ${got} of 50000 records arrived; none for 3000 ms`)
  }, 120_000)
})
