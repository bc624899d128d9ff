/**
 * The SDK in real Chromium: the page's light libp2p node dials a real peer process over
 * WebSockets and creates a topic, produces (idempotent, acks=all) and consumes through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { type KafkaMessage, Tributary, UnknownTopicOrPartitionError } from '../src/index.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
  }
}

describe('client > in the browser', () => {
  let peer: { peerId: string; ws: string } | undefined
  let mesh: Tributary | undefined

  beforeAll(async () => {
    peer = await commands.startPeerProcessForPage()
    mesh = await Tributary.connect({
      bootstrap: [peer.ws],
      connectionTimeout: 20_000,
      node: { allowInsecureWebSockets: true },
    })
  }, 60_000)

  afterAll(async () => {
    await mesh?.disconnect()
    if (peer !== undefined) await commands.stopPeerProcess(peer.peerId)
  }, 30_000)

  it('creates a topic, produces with acks=all and reads every record back in order', async () => {
    const admin = mesh!.admin()
    await admin.createTopics({ topics: [{ topic: 'from-the-page', numPartitions: 2, replicationFactor: 1 }] })
    const producer = mesh!.producer()
    const values = Array.from({ length: 50 }, (_, i) => `page-${i}`)
    const sent = await producer.send({
      topic: 'from-the-page',
      acks: 'all',
      messages: values.map((value) => ({ key: 'tab', value, headers: { origin: 'chromium' } })),
    })
    expect(sent.map((r) => r.errorCode)).toEqual(sent.map(() => 0))
    await producer.disconnect()

    const consumer = mesh!.consumer()
    await consumer.subscribe({ topics: ['from-the-page'], fromBeginning: true })
    const seen: KafkaMessage[] = []
    const done = new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            seen.push(message)
            if (seen.length === values.length) resolve()
          },
        })
        .catch(reject)
    })
    await done
    await consumer.stop()
    const text = new TextDecoder()
    // One key: one partition, so the page reads them in the order it sent them.
    expect(seen.map((m) => text.decode(m.value!))).toEqual(values)
    expect(seen.every((m) => text.decode(m.headers!.origin as Uint8Array) === 'chromium')).toBe(true)
  }, 60_000)

  it('gets a typed error for an unknown topic', async () => {
    const producer = mesh!.producer({ retry: { retries: 0 } })
    await expect(producer.send({ topic: 'no-such-topic', acks: 'all', messages: [{ value: 'x' }] })).rejects.toSatisfy(
      (err: unknown) =>
        err instanceof UnknownTopicOrPartitionError ||
        (err instanceof Error && err.cause instanceof UnknownTopicOrPartitionError),
    )
    await producer.disconnect()
  }, 30_000)
})
