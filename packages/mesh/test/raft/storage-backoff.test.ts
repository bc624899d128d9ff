import { StorageQuotaError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { MemoryQuorumStateStore } from '../../src/raft/index.js'
import { advance, fetchResponse, flush, replica, ScriptedTransport, storedBatch, TEST_CONFIG } from './helpers.js'
import { SimClock } from './sim-network.js'

describe('raft > replica fetcher > storage refusals', () => {
  it('backs off exponentially while its log refuses to store, and fetches at once after a success', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 2, leaderId: 'a' })
    const { raft, log } = await replica({ id: 'o', voters: ['a'], observers: ['o'], clock, transport, store })
    const appendAsFollower = log.appendAsFollower.bind(log)
    let full = true
    log.appendAsFollower = (batches, options) =>
      full
        ? Promise.reject(new StorageQuotaError('quota exhausted; nothing was written'))
        : appendAsFollower(batches, options)
    await raft.start()
    await flush()
    const backoff = TEST_CONFIG.retryBackoffMs!
    // Each refusal doubles the wait before the next fetch: 2, 4, 8 backoffs.
    for (const factor of [2, 4, 8]) {
      const [call] = transport.take('fetch')
      expect(call?.request).toMatchObject({ fetchOffset: 0 })
      call!.resolve(fetchResponse({ leaderEpoch: 2, highWatermark: 1, records: storedBatch(0, 2, 'x') }))
      await advance(clock, backoff * factor - 1)
      expect(transport.take('fetch')).toEqual([])
      await advance(clock, 1)
    }
    full = false
    const [call] = transport.take('fetch')
    call!.resolve(fetchResponse({ leaderEpoch: 2, highWatermark: 1, records: storedBatch(0, 2, 'x') }))
    await flush()
    expect(log.logEndOffset).toBe(1)
    // Stored: the next fetch goes at once.
    expect(transport.take('fetch')[0]?.request).toMatchObject({ fetchOffset: 1 })
    await raft.stop()
  })
})
