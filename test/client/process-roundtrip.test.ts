/**
 * The SDK against a real `tributary peer start` process: keys, null keys, headers, empty, null
 * and large values survive the round trip byte for byte, in order per partition.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type KafkaMessage, type Message, type RecordMetadata, Tributary } from '@tributary/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PeerProcess, startPeerProcess, stopAll } from '../helpers/peer-process.ts'

describe('client > against a peer process', () => {
  let dataDir: string
  let peer: PeerProcess
  let mesh: Tributary

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tributary-client-process-'))
    peer = await startPeerProcess(dataDir)
    mesh = await Tributary.connect({ bootstrap: [peer.address], requestTimeout: 20_000 })
  }, 60_000)

  afterAll(async () => {
    await mesh?.disconnect()
    await stopAll('SIGTERM')
    await rm(dataDir, { recursive: true, force: true })
  }, 30_000)

  it('round-trips keys, null keys, headers, empty, null and large values in order per partition', async () => {
    await mesh.admin().createTopics({ topics: [{ topic: 'shapes', numPartitions: 3, replicationFactor: 1 }] })
    // Deterministic filler, so a corrupted byte anywhere shows up in the comparison.
    const filler = (n: number, seed: number): Uint8Array =>
      Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)
    const messages: Message[] = [
      { key: 'a', value: 'first of a', headers: { trace: 't-1', multi: ['x', 'y'] } },
      { key: null, value: 'keyless', partition: 1 },
      { key: 'a', value: '' },
      { key: 'b', value: null },
      { key: 'a', value: filler(700 * 1024, 7) },
      { key: new Uint8Array([0, 255, 1]), value: filler(64 * 1024, 3), headers: { bin: new Uint8Array([9, 0, 9]) } },
      { key: 'a', value: 'last of a' },
    ]
    const producer = mesh.producer()
    // One send per record keeps the large one alone in its batch, under max.message.bytes.
    const sent: RecordMetadata[] = []
    for (const message of messages) {
      const [meta] = await producer.send({ topic: 'shapes', acks: 'all', messages: [message] })
      sent.push(meta!)
    }
    await producer.disconnect()

    const consumer = mesh.consumer()
    await consumer.subscribe({ topics: ['shapes'], fromBeginning: true })
    const seen: Array<{ partition: number; message: KafkaMessage }> = []
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            seen.push({ partition, message })
            if (seen.length === messages.length) resolve()
          },
        })
        .catch(reject)
    })
    await consumer.stop()
    await consumer.disconnect()

    const bytes = (v: Message['value'] | Message['key']): Uint8Array | null =>
      v === null || v === undefined ? null : typeof v === 'string' ? new TextEncoder().encode(v) : (v as Uint8Array)
    const plain = (b: Uint8Array | null): number[] | null => (b === null ? null : [...b])
    for (const [i, message] of messages.entries()) {
      const at = seen.find((s) => s.partition === sent[i]!.partition && s.message.offset === sent[i]!.baseOffset)
      expect(at, `record ${i}`).toBeDefined()
      expect(plain(at!.message.key)).toEqual(plain(bytes(message.key)))
      expect(plain(at!.message.value)).toEqual(plain(bytes(message.value)))
    }
    const first = seen.find((s) => s.message.offset === sent[0]!.baseOffset && s.partition === sent[0]!.partition)!
    expect(Buffer.from(first.message.headers!.trace as Uint8Array).toString()).toBe('t-1')
    expect((first.message.headers!.multi as Uint8Array[]).map((h) => Buffer.from(h).toString())).toEqual(['x', 'y'])
    // Every record keyed 'a' went to one partition, and came back in the order it was sent.
    const aPartition = sent[0]!.partition
    const aValues = seen
      .filter((s) => s.partition === aPartition && Buffer.from(s.message.key ?? []).toString() === 'a')
      .map((s) => s.message.value?.length)
    expect(aValues).toEqual([10, 0, 700 * 1024, 9])
  }, 60_000)
})
