import '../../src/polyfills.js'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PEER_KEY_FILE } from '../../src/constants.js'
import { loadOrCreatePeerKey, PeerKeyCorruptError } from '../../src/node/index.js'
import { NodeSession } from '../helpers.js'

describe('node > identity', () => {
  const session = new NodeSession()
  let dataDir: string
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tributary-identity-'))
  })
  afterEach(async () => {
    await session.stopAll()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('keeps the peer id across restarts with the same dataDir, in a 0600 key file', async () => {
    const first = await session.node({ dataDir })
    const peerId = first.peerId.toString()
    await first.stop()
    const keyFile = join(dataDir, PEER_KEY_FILE)
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600)

    const second = await session.node({ dataDir })
    expect(second.peerId.toString()).toBe(peerId)
  })

  it('gives each node without a dataDir its own ephemeral identity', async () => {
    const [a, b] = await Promise.all([session.node(), session.node()])
    expect(a.peerId.toString()).not.toBe(b.peerId.toString())
  })

  it('creates the data directory and tightens a key file that others can read', async () => {
    const nested = join(dataDir, 'a', 'b')
    const key = await loadOrCreatePeerKey(nested)
    const keyFile = join(nested, PEER_KEY_FILE)
    await import('node:fs/promises').then((fs) => fs.chmod(keyFile, 0o644))
    const again = await loadOrCreatePeerKey(nested)
    expect(again.equals(key)).toBe(true)
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600)
  })

  it('refuses to start on a corrupt key file instead of silently taking a new identity', async () => {
    await writeFile(join(dataDir, PEER_KEY_FILE), 'not a key')
    await expect(loadOrCreatePeerKey(dataDir)).rejects.toBeInstanceOf(PeerKeyCorruptError)
    expect(await readFile(join(dataDir, PEER_KEY_FILE), 'utf8')).toBe('not a key')
  })
})
