import '../../src/polyfills.js'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { multiaddr } from '@multiformats/multiaddr'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { nextIncarnation } from '../../src/membership/incarnation.js'
import { INCARNATION_FILE, incarnationFile } from '../../src/membership/incarnation-file.js'
import { Membership } from '../../src/membership/index.js'
import { NodeSession, tcpAddr, waitFor } from '../helpers.js'

const HOUR_MS = 3_600_000

describe('membership > incarnations across restarts', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tributary-incarnation-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps increasing in the data dir when the clock steps back between restarts', async () => {
    const store = incarnationFile(join(dir, 'peer'))
    expect(await store.load()).toBeUndefined()
    const now = Date.now()
    const first = await nextIncarnation(store, now)
    expect(first >> 20n).toBe(BigInt(now))
    expect((await readFile(join(dir, 'peer', INCARNATION_FILE), 'utf8')).trim()).toBe(first.toString())
    // An hour back: start time alone would order this restart before the previous lifetime.
    const second = await nextIncarnation(store, now - HOUR_MS)
    expect(second).toBeGreaterThan(first)
    expect(await store.load()).toBe(second)
  })

  it('treats a damaged file as absent, and the next save repairs it', async () => {
    const store = incarnationFile(dir)
    for (const content of ['', 'not a number', '9'.repeat(40), '-5', '0', (1n << 63n).toString()]) {
      await writeFile(join(dir, INCARNATION_FILE), content)
      expect(await store.load(), JSON.stringify(content)).toBeUndefined()
    }
    const next = await nextIncarnation(store)
    expect(await store.load()).toBe(next)
  })

  describe('seen by other peers', () => {
    const session = new NodeSession()
    afterEach(() => session.stopAll())

    it('a restart after the clock stepped back joins again instead of being ignored as an old lifetime', async () => {
      const store = incarnationFile(dir)
      const key = await generateKeyPair('Ed25519')
      const seed = await session.node({ wsPort: false })
      const seedView = new Membership(seed, { heartbeatIntervalMs: 200 })
      session.onCleanup(() => seedView.stop())
      await seedView.start()
      // The previous lifetime ran while the clock was an hour ahead.
      const ahead = (BigInt(Date.now() + HOUR_MS) << 20n) | 1n
      const old = await session.node({ wsPort: false, privateKey: key, bootstrap: [tcpAddr(seed)] })
      const oldMembership = new Membership(old, {
        heartbeatIntervalMs: 200,
        incarnation: ahead,
        incarnationStore: store,
      })
      await oldMembership.start()
      const id = old.peerId.toString()
      await waitFor(() => seedView.get(id)?.status === 'alive', { message: 'the old lifetime alive' })
      await oldMembership.stop()
      // The goodbye travels with gossipsub's traffic: the node stops once the seed has it (stopped
      // at once, a full CI run once lost it in the closing connection), within 20 s under load.
      await waitFor(() => seedView.get(id)?.status === 'left', { message: 'the old lifetime left', timeoutMs: 20_000 })
      await old.stop()

      const node = await session.node({ wsPort: false, privateKey: key })
      const membership = new Membership(node, { heartbeatIntervalMs: 200, incarnationStore: store })
      session.onCleanup(() => membership.stop())
      await membership.start()
      expect(membership.incarnation).toBe(ahead + 1n)
      await node.dial(multiaddr(tcpAddr(seed)))
      await waitFor(() => seedView.get(id)?.status === 'alive', { message: 'the restart alive on the seed' })
      expect(seedView.get(id)?.incarnation).toBe(ahead + 1n)
    })

    it('a membership stopped and started again in one process is a new incarnation, alive again', async () => {
      const seed = await session.node({ wsPort: false })
      const seedView = new Membership(seed, { heartbeatIntervalMs: 200 })
      session.onCleanup(() => seedView.stop())
      await seedView.start()
      const node = await session.node({ wsPort: false, bootstrap: [tcpAddr(seed)] })
      const membership = new Membership(node, { heartbeatIntervalMs: 200 })
      session.onCleanup(() => membership.stop())
      await membership.start()
      const id = node.peerId.toString()
      const first = membership.incarnation
      await waitFor(() => seedView.get(id)?.status === 'alive', { message: 'alive' })
      await membership.stop()
      await waitFor(() => seedView.get(id)?.status === 'left', { message: 'left' })
      await membership.start()
      expect(membership.incarnation).toBeGreaterThan(first)
      await waitFor(() => seedView.get(id)?.status === 'alive', { message: 'alive again' })
    })
  })
})
