/**
 * Leadership moves under a running producer: three peers, replication factor 3, the client
 * connected only through the partition's leader, which is then stopped. The producer keeps
 * going (metadata from the peers it learned, NOT_LEADER hints, retries), every acknowledged
 * record is read back exactly once and in order.
 */
import { Tributary } from '@tributary/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMesh, type TestMesh, waitFor } from './mesh.ts'

let mesh: TestMesh

beforeAll(async () => {
  mesh = await startMesh(3)
}, 60_000)

afterAll(async () => {
  await mesh?.stop()
})

describe('client > leader moves', () => {
  it('keeps producing when the leader stops, and every record is read once, in order', async () => {
    const admin = mesh.client.admin()
    await admin.createTopics({ topics: [{ topic: 'moving', numPartitions: 1, replicationFactor: 3 }] })
    const inSync = await waitFor(async () => {
      const [t] = await admin.describeTopics({ topics: ['moving'] })
      const p = t!.partitions[0]!
      return p.leader !== '' && p.inSyncVoters.length === 3 ? p : undefined
    }, 'a leader with all three voters in sync')
    const leader = mesh.peers.find((p) => p.peerId === inSync.leader)!
    // Only the leader as bootstrap: when it goes, the client must find the mesh through peers it learned.
    const client = await Tributary.connect({ bootstrap: [leader.addresses()[0]!], requestTimeout: 5000 })
    try {
      const producer = client.producer({ retry: { retries: 8, initialRetryTime: 100, maxRetryTime: 2000 } })
      const sent: string[] = []
      let stopped = false
      let failure: unknown
      const writing = (async () => {
        for (let i = 0; i < 400 && failure === undefined; i++) {
          const value = `m${i}`
          await producer.send({ topic: 'moving', messages: [{ value }] }).then(
            () => sent.push(value),
            (err: unknown) => {
              failure = err
            },
          )
          if (i === 100) {
            await leader.stop()
            stopped = true
          }
        }
      })()
      await writing
      expect(failure).toBeUndefined()
      expect(stopped).toBe(true)
      expect(sent).toHaveLength(400)

      const [after] = await client.admin().describeTopics({ topics: ['moving'] })
      expect(after!.partitions[0]!.leader).not.toBe(leader.peerId)
      expect(after!.partitions[0]!.leaderEpoch).toBeGreaterThan(inSync.leaderEpoch)

      const consumer = client.consumer({ maxWaitTimeInMs: 200 })
      const read: string[] = []
      await consumer.subscribe({ topic: 'moving', fromBeginning: true })
      await consumer.run({ eachMessage: async ({ message }) => void read.push(message.value!.toString()) })
      await waitFor(() => read.length >= sent.length, 'every record read back', 30_000)
      expect(read).toEqual(sent)
    } finally {
      await client.disconnect()
    }
  }, 90_000)
})
