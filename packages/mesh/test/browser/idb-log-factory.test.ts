/**
 * The browser peer's storage pieces under Node with fake-indexeddb (a fast extra run; the same
 * code runs against Chromium's IndexedDB in the *.browser.test.ts files): the replica catalog,
 * Raft state, a re-created topic's stale data, the byte budget's caps, and the identity.
 */
import 'fake-indexeddb/auto'
import { encodeRecordBatchSync } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { IdbLogFactory } from '../../src/browser/idb-log-factory.js'
import { loadOrCreateBrowserPeerKey } from '../../src/browser/identity.js'
import { KV, PeerDatabase } from '../../src/browser/peer-database.js'
import { silentLogger } from '../../src/logger.js'
import { PeerKeyCorruptError } from '../../src/node/identity-error.js'

let n = 0
const opened: PeerDatabase[] = []

async function factory(budgetBytes?: number) {
  const name = `factory-${n++}`
  const peerDb = await PeerDatabase.open(`${name}-peer`)
  opened.push(peerDb)
  return { peerDb, logs: new IdbLogFactory({ peerDb, logDbName: `${name}-logs`, budgetBytes }) }
}

const spec = (topicId: string, configs: Record<string, string> = {}) => ({
  topic: 'orders',
  partition: 3,
  topicId,
  configs,
  logger: silentLogger,
})

function batch(values: string[]): Uint8Array {
  return encodeRecordBatchSync({ records: values.map((value) => ({ value: new TextEncoder().encode(value) })) })
}

describe('mesh > browser > IdbLogFactory', () => {
  afterEach(() => {
    for (const db of opened.splice(0)) db.close()
  })

  it('keeps a catalog of replicas and their Raft state, and removes both with the data', async () => {
    const { logs } = await factory()
    const log = await logs.open(spec('aa'))
    await log.appendAsLeader(batch(['a', 'b']), 0)
    await log.close()
    await logs.quorumStore('orders', 3).save({ epoch: 4, leaderId: 'p1' })
    expect(await logs.stored()).toEqual([{ topic: 'orders', partition: 3, topicId: 'aa' }])
    expect(await logs.quorumStore('orders', 3).load()).toMatchObject({ epoch: 4, leaderId: 'p1' })

    const again = await logs.open(spec('aa'))
    expect(again.logEndOffset).toBe(2)
    await again.close()
    await logs.remove('orders', 3)
    expect(await logs.stored()).toEqual([])
    expect(await logs.quorumStore('orders', 3).load()).toBeUndefined()
    const empty = await logs.open(spec('aa'))
    expect(empty.logEndOffset).toBe(0)
    await empty.close()
  })

  it('drops data left by an earlier topic of the same name', async () => {
    const { logs } = await factory()
    const old = await logs.open(spec('aa'))
    await old.appendAsLeader(batch(['old']), 0)
    await old.close()
    const fresh = await logs.open(spec('bb'))
    expect(fresh.logEndOffset).toBe(0)
    await fresh.close()
    expect(await logs.stored()).toEqual([{ topic: 'orders', partition: 3, topicId: 'bb' }])
  })

  it('caps retention and segment size to each open log’s share of the budget, through topic config changes', async () => {
    const { logs } = await factory(400 * 1024)
    const first = await logs.open(spec('aa', { 'retention.bytes': '1000000' }))
    expect(first.config.retentionBytes).toBe(300 * 1024)
    expect(first.config.segmentBytes).toBe(100 * 1024)
    const second = await logs.open({ ...spec('cc'), topic: 'events', partition: 0 })
    // Two logs share the budget.
    expect(first.config.retentionBytes).toBe(150 * 1024)
    expect(second.config.retentionBytes).toBe(150 * 1024)
    // A topic config change keeps the cap; a smaller topic setting wins.
    first.updateConfig({ retentionBytes: 10_000, segmentBytes: 1024 * 1024 * 1024 })
    expect(first.config.retentionBytes).toBe(10_000)
    expect(first.config.segmentBytes).toBe(50 * 1024)
    await second.close()
    // Closing gives the share back.
    expect(first.config.segmentBytes).toBe(100 * 1024)
    logs.setBudget(undefined)
    expect(first.config.segmentBytes).toBe(1024 * 1024 * 1024)
    expect(() => logs.setBudget(10)).toThrow(/at least/)
    await first.close()
  })

  it('keeps the identity, and refuses a damaged one rather than taking a new identity', async () => {
    const { peerDb } = await factory()
    const key = await loadOrCreateBrowserPeerKey(peerDb)
    const again = await loadOrCreateBrowserPeerKey(peerDb)
    expect(again.equals(key)).toBe(true)
    await peerDb.put(KV, 'peer-key', new Uint8Array([1, 2, 3]))
    await expect(loadOrCreateBrowserPeerKey(peerDb)).rejects.toBeInstanceOf(PeerKeyCorruptError)
  })
})
