import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { health, startPeerProcess, stopAll, waitFor } from '../../../test/helpers/peer-process.ts'

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url))
let root: string

function tributary(...args: string[]) {
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', main, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  })
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-cli-'))
})

afterAll(async () => {
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

describe('peer > cli', () => {
  it('prints help for every command and exits 0', () => {
    for (const args of [['--help'], ['peer', '--help'], ['peer', 'start', '--help']]) {
      const run = tributary(...args)
      expect(run.status, args.join(' ')).toBe(0)
      expect(run.stdout).toMatch(/Usage: tributary/)
    }
    expect(tributary('peer', 'start', '--help').stdout).toMatch(/--bootstrap <multiaddr>/)
  })

  it('exits 2 with a message on stderr for bad arguments', () => {
    for (const args of [['peer', 'start', '--port', 'abc'], ['peer', 'start', '--http-port', '70000'], ['nonsense']]) {
      const run = tributary(...args)
      expect(run.status, args.join(' ')).toBe(2)
      expect(run.stderr.length).toBeGreaterThan(0)
      expect(run.stdout).toBe('')
    }
  })

  it('refuses a second peer on the same data dir, and shuts down cleanly on SIGINT', async () => {
    const dir = join(root, 'one')
    const peer = await startPeerProcess(dir)
    expect((await health(peer)).status).toBe('ok')
    const second = tributary('peer', 'start', '--data', dir, '--port', '0', '--ws-port', '0', '--http-port', '0')
    expect(second.status).toBe(1)
    expect(second.stderr).toMatch(/already running on data dir/)
    expect(await peer.stop('SIGINT')).toBe(0)
    expect(peer.output()).toMatch(/peer stopped/)
    expect(existsSync(join(dir, 'peer.lock'))).toBe(false)
  })

  it('takes over the lock of a peer that was killed', async () => {
    const dir = join(root, 'two')
    const first = await startPeerProcess(dir)
    await first.stop('SIGKILL')
    const again = await startPeerProcess(dir)
    expect(again.peerId).toBe(first.peerId)
    await waitFor(async () => (await health(again)).status === 'ok', 'the restarted peer')
    await again.stop('SIGTERM')
  })
})
