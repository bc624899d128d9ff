/**
 * The `tributary` commands as scripts meet them, without a peer: `--help` everywhere exits 0,
 * a bad argument exits 2 with a message on stderr and nothing on stdout, and no reachable peer
 * exits 1 with one line saying how to start one.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliRun, killAllCli, runCli } from './helpers/run-cli.ts'

let root: string
/** A data dir no peer ever ran in: nothing to find there. */
let empty: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-cli-usage-'))
  empty = join(root, 'empty')
  await mkdir(empty)
})

afterAll(async () => {
  killAllCli()
  await rm(root, { recursive: true, force: true })
})

/** Runs each argument list, two at a time (this machine has two cores). */
async function runAll(list: string[][]): Promise<CliRun[]> {
  const results: CliRun[] = new Array(list.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < list.length) {
      const i = next++
      results[i] = await runCli(list[i]!)
    }
  }
  await Promise.all([worker(), worker()])
  return results
}

const HELP = [
  ['--help'],
  ['topics', '--help'],
  ['topics', 'create', '--help'],
  ['topics', 'list', '--help'],
  ['topics', 'describe', '--help'],
  ['topics', 'alter', '--help'],
  ['topics', 'delete', '--help'],
  ['produce', '--help'],
  ['consume', '--help'],
  ['cluster', '--help'],
  ['perf', '--help'],
  ['perf', 'produce', '--help'],
  ['perf', 'consume', '--help'],
]

describe('cli > usage', () => {
  it('prints help for every command on stdout and exits 0', async () => {
    const runs = await runAll(HELP)
    runs.forEach((run, i) => {
      const args = HELP[i]!
      expect(run.status, args.join(' ')).toBe(0)
      expect(run.stdout, args.join(' ')).toMatch(/^Usage: tributary/)
      expect(run.stderr, args.join(' ')).toBe('')
    })
    const help = (args: string[]) => runs[HELP.findIndex((h) => h.join(' ') === args.join(' '))]!.stdout
    for (const name of ['topics', 'produce', 'consume', 'cluster', 'perf']) expect(help(['--help'])).toContain(name)
    expect(help(['produce', '--help'])).toMatch(/--key-separator <sep>[\s\S]*--acks <acks>[\s\S]*--headers/)
    expect(help(['consume', '--help'])).toMatch(/--from-beginning[\s\S]*--max-messages <n>[\s\S]*--format <format>/)
    expect(help(['perf', 'produce', '--help'])).toMatch(
      /--num-records <n>[\s\S]*--record-size <bytes>[\s\S]*--throughput/,
    )
  }, 120_000)

  it('exits 2 with a message on stderr, and nothing on stdout, for bad arguments', async () => {
    const peer = ['--data', empty]
    const bad = [
      ['topics'],
      ['topics', 'create'],
      ['topics', 'create', 'has space', ...peer],
      ['topics', 'create', 't', '--partitions', '0', ...peer],
      ['topics', 'create', 't', '--replication-factor', 'two', ...peer],
      ['topics', 'create', 't', '--config', 'retention.ms', ...peer],
      ['topics', 'alter', 't', ...peer],
      ['topics', 'list', '--format', 'yaml', ...peer],
      ['topics', 'list', '--peer', '127.0.0.1:4001'],
      ['produce', 't', '--acks', '2', ...peer],
      ['produce', 't', '--headers', 'novalue', ...peer],
      ['produce', 't', '--partition', '-1', ...peer],
      ['consume', 't', '--offset', '5', ...peer],
      ['consume', 't', '--from-beginning', '--offset', '3', '--partition', '0', ...peer],
      ['consume', 't', '--format', 'xml', ...peer],
      ['consume', 't', '--max-messages', '0', ...peer],
      ['perf', 'produce', '--topic', 't', '--record-size', '100', ...peer],
      ['perf', 'produce', '--topic', 't', '--num-records', '10', '--record-size', '-1', ...peer],
      ['perf', 'consume', '--topic', 't', ...peer],
      ['cluster', '--what'],
      ['nonsense'],
    ]
    const runs = await runAll(bad)
    runs.forEach((run, i) => {
      const args = bad[i]!.join(' ')
      expect(run.status, args).toBe(2)
      // Commander words it `error: …`; a command group without its subcommand prints its usage.
      expect(run.stderr, args).toMatch(/^error: |^Usage: tributary/m)
      expect(run.stdout, args).toBe('')
    })
  }, 120_000)

  it('exits 1 with one line saying how to start a peer when none is known or none answers', async () => {
    const stale = join(root, 'stale')
    await mkdir(stale)
    const peerId = '12D3KooWQ9kH2pwz87KSABJLBdKFG7iPhLaPEUFu1DByZUj7dzz8'
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    const address = `/ip4/127.0.0.1/tcp/${port}/p2p/${peerId}`
    // pid above the kernel's limit (pid_max ≤ 2^22): the peer that wrote this is not running.
    await writeFile(
      join(stale, 'peer.json'),
      JSON.stringify({ peerId, addresses: [address], httpPort: 1, pid: 2 ** 22 + 1 }),
    )
    const cases: Array<[string[], RegExp]> = [
      [['topics', 'list', '--data', empty], /names none/],
      [['consume', 't', '--data', stale], /is not running/],
      [['cluster', '--peer', address], /no peer answered at .*\(--peer\)/],
    ]
    const runs = await runAll(cases.map(([args]) => args))
    runs.forEach((run, i) => {
      const [args, why] = cases[i]!
      expect(run.status, args.join(' ')).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(run.stderr).toMatch(why)
      expect(run.stderr).toMatch(/start one with `npx tributary peer start` \(or `npm start`\)/)
    })
  }, 120_000)
})
