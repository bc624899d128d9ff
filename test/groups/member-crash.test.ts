/**
 * A group member killed outright (SIGKILL: no LeaveGroup, no final commit) in its own process:
 * after its session expires, its partitions move to the surviving member, which reads them from
 * the last committed offsets — nothing is skipped, and no partition ever has two owners among
 * the members we can observe.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Consumer, Tributary } from '@tributary/client'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { type GroupMesh, startGroupMesh } from './group-mesh.ts'

const script = fileURLToPath(new URL('./consumer-process.ts', import.meta.url))

let mesh: GroupMesh | undefined
let child: ChildProcess | undefined

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
  child = undefined
  await mesh?.stop()
  mesh = undefined
})

async function produce(client: Tributary, count: number, tag: string): Promise<void> {
  const producer = client.producer()
  try {
    await producer.send({
      topic: 'orders',
      acks: -1,
      messages: Array.from({ length: count }, (_, i) => ({
        key: `${tag}-${i}`,
        value: `${tag}-${i}`,
        partition: i % 4,
      })),
    })
  } finally {
    await producer.disconnect()
  }
}

const owned = (consumer: Consumer): string[] =>
  consumer.assignment().flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`))

describe('a group member killed', () => {
  it('loses its partitions to the survivor after its session, which resumes from the committed offsets', async () => {
    mesh = await startGroupMesh(3)
    const client = await mesh.connect()
    await client.admin().createTopics({ topics: [{ topic: 'orders', numPartitions: 4, replicationFactor: 3 }] })
    await produce(client, 40, 'a')

    const processed = new Set<string>()
    const survivor = client.consumer({
      groupId: 'crash',
      sessionTimeout: 3_000,
      heartbeatInterval: 300,
      rebalanceTimeout: 10_000,
      autoCommitInterval: 200,
      maxWaitTimeInMs: 200,
    })
    await survivor.subscribe({ topics: ['orders'], fromBeginning: true })
    await survivor.run({
      eachMessage: async ({ topic, partition, message }) => {
        processed.add(`${topic}-${partition}@${message.offset}`)
      },
    })
    await waitFor(() => owned(survivor).length === 4, 'the survivor to own all 4 partitions')

    // The other member, in its own process.
    let childOwned: string[] = []
    const childProcessed = new Set<string>()
    let output = ''
    child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', script, mesh.peers[0]!.addresses()[0]!, 'crash', 'orders'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let pending = ''
    child.stdout!.on('data', (d: Buffer) => {
      pending += d.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        const parsed = JSON.parse(line) as { owned?: string[]; processed?: string }
        if (parsed.owned !== undefined) childOwned = parsed.owned
        if (parsed.processed !== undefined) childProcessed.add(parsed.processed)
      }
    })
    child.stderr!.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-10_000)
    })

    const overlaps: string[] = []
    const sampler = setInterval(() => {
      const mine = owned(survivor)
      for (const tp of childOwned) if (mine.includes(tp)) overlaps.push(tp)
    }, 20)
    try {
      await waitFor(
        () => childOwned.length === 2 && owned(survivor).length === 2,
        `the partitions shared 2-2 (child: ${output.slice(-500)})`,
        45_000,
      )
      await produce(client, 40, 'b')
      await waitFor(() => processed.size + childProcessed.size >= 80, 'all 80 records', 30_000)
      const byChild = childProcessed.size
      child.kill('SIGKILL')
      await new Promise((resolve) => child!.once('exit', resolve))
      childOwned = [] // a dead process owns nothing
      await produce(client, 40, 'c')
      await waitFor(() => owned(survivor).length === 4, 'the killed member’s partitions to move', 30_000)
      const all = (): Set<string> => new Set([...processed, ...childProcessed])
      await waitFor(() => all().size >= 120, 'every record processed by someone', 30_000)
      expect(byChild).toBeGreaterThan(0)
      expect(all().size).toBe(120)
      expect(overlaps).toEqual([])
    } finally {
      clearInterval(sampler)
    }
  }, 120_000)
})
