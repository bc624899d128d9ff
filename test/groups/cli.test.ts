/**
 * `tributary consume --group` and `tributary groups list|describe|reset-offsets|delete` end to
 * end against a real peer process (which runs the group service): a group reads part of a topic,
 * a second run continues after what the first printed, describe shows the lag, reset-offsets
 * rewinds the group, delete removes it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllCli, runCli } from '../../apps/peer/test/helpers/run-cli.ts'
import { type PeerProcess, startPeerProcess, stopAll } from '../helpers/peer-process.ts'

let root: string
let peer: PeerProcess
let at: string[]

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-groups-cli-'))
  peer = await startPeerProcess(join(root, 'peer'))
  at = ['--data', peer.dataDir]
}, 60_000)

afterAll(async () => {
  killAllCli()
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

const values = (stdout: string): string[] =>
  stdout
    .trim()
    .split('\n')
    .filter((l) => l !== '')

describe('cli > consumer groups', () => {
  it('consumes as a group, describes it with lag, resets its offsets and deletes it', async () => {
    expect((await runCli(['topics', 'create', 'orders', ...at])).status).toBe(0)
    const lines = Array.from({ length: 10 }, (_, i) => `v${i}`)
    const produced = await runCli(['produce', 'orders', ...at], { input: `${lines.join('\n')}\n` })
    expect(produced.status).toBe(0)

    const first = await runCli([
      'consume',
      'orders',
      '--group',
      'billing',
      '--from-beginning',
      '--max-messages',
      '4',
      ...at,
    ])
    expect(first.status).toBe(0)
    expect(values(first.stdout)).toEqual(lines.slice(0, 4))
    // The next member of the group continues after what the first printed.
    const second = await runCli(['consume', 'orders', '--group', 'billing', '--max-messages', '3', ...at])
    expect(values(second.stdout)).toEqual(lines.slice(4, 7))

    const listed = await runCli(['groups', 'list', '--format', 'json', ...at])
    expect(JSON.parse(listed.stdout)).toEqual([
      { groupId: 'billing', protocolType: 'consumer', state: 'Empty', members: 0 },
    ])
    const described = await runCli(['groups', 'describe', 'billing', '--format', 'json', ...at])
    const d = JSON.parse(described.stdout) as {
      state: string
      offsets: Array<{ offset: string; logEndOffset: string; lag: string }>
    }
    expect(d.state).toBe('Empty')
    expect(d.offsets).toHaveLength(1)
    expect(Number(d.offsets[0]!.logEndOffset) - Number(d.offsets[0]!.offset)).toBe(3)
    expect(d.offsets[0]!.lag).toBe('3')
    const text = await runCli(['groups', 'describe', 'billing', ...at])
    expect(text.stdout).toMatch(/Group: billing\tState: Empty/)
    expect(text.stdout).toMatch(/Lag/)

    const reset = await runCli(['groups', 'reset-offsets', 'billing', '--topic', 'orders', '--to-earliest', ...at])
    expect(reset.status).toBe(0)
    const again = await runCli(['consume', 'orders', '--group', 'billing', '--max-messages', '10', ...at])
    expect(values(again.stdout)).toEqual(lines)

    const bad = await runCli([
      'groups',
      'reset-offsets',
      'billing',
      '--topic',
      'orders',
      '--to-earliest',
      '--to-latest',
      ...at,
    ])
    expect(bad.status).toBe(2)
    const deleted = await runCli(['groups', 'delete', 'billing', ...at])
    expect(deleted.stdout).toBe('Deleted group billing.\n')
    const gone = await runCli(['groups', 'describe', 'billing', ...at])
    expect(gone.status).not.toBe(0)
    expect(gone.stderr).toMatch(/does not exist/)
  }, 180_000)
})
