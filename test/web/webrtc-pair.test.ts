/**
 * Two pages connect directly over WebRTC through a Node relay and replicate a partition between
 * them; stop the relay and they still exchange data directly (issue 7 §4).
 *
 * Two Chromium pages in two browser contexts (two profiles: separate IndexedDB) each run a
 * browser peer that offers to vote, against a real `tributary peer start` process N (their
 * bootstrap peer and circuit relay). A topic allowing browser voters, replication factor 3, gets
 * the voters {N, A, B}; records produced from Node reach both pages' replicas; the pages find
 * each other through N and connect directly over WebRTC. Then N is killed: A and B elect a
 * leader between themselves over that direct connection, and records produced on one page are
 * committed and read on the other.
 */
import { Tributary } from '@tributary/client'
import { BROWSER_VOTERS_ALLOWED } from '@tributary/mesh'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type PeerProcess, waitFor } from '../helpers/peer-process.ts'
import { closeAll, openBrowser, serveTestPage, startWebPeer } from './page.ts'
import type { ConnectionView, ReplicaView } from './pages/webrtc-pair.ts'

const PARTITIONS = 3
const BALANCE_CHECK_MS = 2_000
const SETTLE_MS = 60_000
/** Raft failure detection plus an election on a loaded machine. */
const ELECTION_MS = 90_000

const values = (tag: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${tag}-${i}`)

/**
 * A direct WebRTC connection: open, without a relay's limits, and WebRTC itself past any
 * circuit. The answering side sees `/webrtc/p2p/<peer>`; the dialing side keeps the address it
 * dialed, `<relay>/p2p-circuit/webrtc/p2p/<peer>` (libp2p's WebRTC transport), the circuit there
 * being only how the connection was signalled. A relayed connection is `<relay>/p2p-circuit/p2p/<peer>`
 * with limits.
 */
const isDirect = (c: ConnectionView): boolean =>
  c.status === 'open' && !c.limited && /(^|\/p2p-circuit)\/webrtc\/p2p\/[^/]+$/.test(c.remoteAddr)

describe('web > two pages over WebRTC', () => {
  let relay: PeerProcess
  let url: string
  let client: Tributary | undefined
  const pages: Page[] = []
  /** The pages' peer ids, once started. */
  const ids: string[] = []

  beforeAll(async () => {
    url = await serveTestPage('webrtc-pair.html')
    relay = await startWebPeer()
    client = await Tributary.connect({ bootstrap: [relay.address], connectionTimeout: 30_000 })
    for (let i = 0; i < 2; i++) {
      const { page } = await openBrowser({ webrtc: true })
      await page.goto(url)
      await page.waitForFunction(() => typeof window.pair === 'object')
      pages.push(page)
    }
  }, 180_000)

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return
    for (const [i, page] of pages.entries()) {
      const lines = await page.evaluate(() => window.pair.logs()).catch(() => [] as string[])
      console.info(`--- page ${'AB'[i]} log (last 150 lines)\n${lines.slice(-150).join('\n')}`)
      const links = lines.filter((line) => /connection|dial/i.test(line) && !/vote request failed/.test(line))
      console.info(`--- page ${'AB'[i]} connection lines (last 100)\n${links.slice(-100).join('\n')}`)
      const other = ids[1 - i]
      if (other !== undefined) {
        const open = await page
          .evaluate((id) => window.pair.connections(id), other)
          .catch((err: unknown) => String(err))
        console.info(`--- page ${'AB'[i]} connections to ${'BA'[i]} now\n${JSON.stringify(open, null, 1)}`)
      }
    }
    console.info(`--- relay output (tail)\n${relay.output().slice(-6000)}`)
  })

  afterAll(async () => {
    for (const page of pages) await page.evaluate(() => window.pair.stop()).catch(() => {})
    await client?.disconnect().catch(() => {})
    await closeAll()
  }, 120_000)

  it('replicate a partition between voting pages; with the relay killed they elect a leader and exchange records directly', async () => {
    const [a, b] = pages as [Page, Page]
    const ws = relay.addresses.find((addr) => addr.includes('/ws/'))
    expect(ws).toBeDefined()
    for (const [i, page] of [a, b].entries()) {
      ids.push(
        await page.evaluate((o) => window.pair.start(o), {
          name: `pair-${'ab'[i]}`,
          bootstrap: [ws!],
          voter: true,
          // A page that won the first election hands over to the relay (the preferred leader)
          // at its next balance check: in seconds rather than the default 30.
          leaderImbalanceCheckIntervalMs: BALANCE_CHECK_MS,
        }),
      )
    }
    const [idA, idB] = ids as [string, string]
    expect(idA).not.toBe(idB)

    const admin = client!.admin()
    await waitFor(
      async () => {
        const { peers } = await admin.describeCluster()
        return ids.every((id) => peers.some((p) => p.peerId === id && p.voter))
      },
      'the relay to see both pages as voters',
      SETTLE_MS,
    )
    // Voters {relay, A, B}. Placement puts the peers every client can reach (Node peers) first
    // among a partition's replicas, so the relay is the preferred leader of every partition: a
    // Node client can produce to it (it cannot dial a browser leader).
    const topic = 'webrtc-pair'
    const partition = 0
    await admin.createTopics({
      topics: [
        {
          topic,
          numPartitions: PARTITIONS,
          replicationFactor: 3,
          configEntries: [{ name: BROWSER_VOTERS_ALLOWED, value: 'true' }],
        },
      ],
      timeout: SETTLE_MS,
    })
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] })
    for (const p of topics[0]!.partitions) {
      expect([...p.replicas].sort()).toEqual([relay.peerId, idA, idB].sort())
      expect(p.replicas[0], `the preferred leader of ${topic}-${p.partitionId}`).toBe(relay.peerId)
    }
    const replicaOf = (page: Page): Promise<ReplicaView | undefined> =>
      page.evaluate(([t, p]) => window.pair.replica(t, p), [topic, partition] as const)
    for (const page of [a, b]) {
      const replica = await waitFor(
        async () => {
          const r = await replicaOf(page)
          return r?.isVoter === true && r.leader === relay.peerId ? r : undefined
        },
        'each page to host a voting replica, following the relay',
        SETTLE_MS,
      )
      expect(replica.voters).toEqual([relay.peerId, idA, idB].sort())
    }

    // Produced from Node to the relay, the leader: both pages replicate every record.
    const first = values('node', 100)
    const producer = client!.producer()
    await producer.send({ topic, acks: 'all', messages: first.map((value) => ({ partition, value })) })
    await producer.disconnect()
    for (const page of [a, b]) {
      await waitFor(
        async () => JSON.stringify((await replicaOf(page))?.values) === JSON.stringify(first),
        'both pages to replicate the records produced from Node',
        SETTLE_MS,
      )
    }

    // The pages reach each other through the relay (the mesh dials members it learns of) and
    // upgrade to a direct WebRTC connection; the relayed one is dropped, as RPCs refuse it.
    const directBetween = async (): Promise<boolean> => {
      const ab = await a.evaluate((id) => window.pair.connections(id), idB)
      const ba = await b.evaluate((id) => window.pair.connections(id), idA)
      return ab.some(isDirect) && ba.some(isDirect)
    }
    const rtcOfA = await waitFor(() => a.evaluate(() => window.pair.rtcAddress()), 'A to listen through the relay')
    expect(rtcOfA).toContain(`/p2p/${relay.peerId}/p2p-circuit/webrtc`)
    if (!(await directBetween())) {
      await b.evaluate((addr) => window.pair.dial(addr), rtcOfA).catch(() => {})
    }
    await waitFor(directBetween, 'a direct WebRTC connection between A and B', SETTLE_MS)
    await a.evaluate((id) => window.pair.dropRelayed(id), idB)
    await b.evaluate((id) => window.pair.dropRelayed(id), idA)

    const before = (await replicaOf(a))!
    await relay.stop('SIGKILL')

    // A and B elect a leader between them: a majority of {relay, A, B}.
    const elected = await waitFor(
      async () => {
        const [ra, rb] = [await replicaOf(a), await replicaOf(b)]
        if (ra === undefined || rb === undefined) return undefined
        const leader = ra.leader
        return leader !== undefined &&
          leader !== relay.peerId &&
          rb.leader === leader &&
          ra.epoch === rb.epoch &&
          ra.epoch > before.epoch
          ? { leader, epoch: ra.epoch }
          : undefined
      },
      'A and B to elect a leader without the relay',
      ELECTION_MS,
    )
    expect([idA, idB]).toContain(elected.leader)

    // Records produced on each page are committed by the two pages and read on the other.
    const fromA = values('page-a', 50)
    await a.evaluate(([t, p, v]) => window.pair.produce(t, p, v), [topic, partition, fromA] as const)
    const fromB = values('page-b', 50)
    await b.evaluate(([t, p, v]) => window.pair.produce(t, p, v), [topic, partition, fromB] as const)
    const expected = [...first, ...fromA, ...fromB]
    for (const page of [b, a]) {
      await waitFor(
        async () => JSON.stringify((await replicaOf(page))?.values) === JSON.stringify(expected),
        'both pages to hold the records produced on the pages',
        SETTLE_MS,
      )
    }

    // Over direct WebRTC connections only, one between the pages, the same one on both sides. A
    // dial the mesh began while the relay lived may still open a second WebRTC connection just
    // after it died; each side then closes all but the lower peer id's oldest (keeping the same
    // one), which may be that late one (a fresh-clone CI run saw it kept, carrying the raft
    // streams), so this waits for one link rather than for a particular one.
    const oneDirectLink = async (): Promise<string | undefined> => {
      const links: Array<{ direction: string }> = []
      for (const [page, other] of [
        [a, idB],
        [b, idA],
      ] as const) {
        const open = (await page.evaluate((id) => window.pair.connections(id), other)).filter(
          (c) => c.status === 'open',
        )
        if (open.length !== 1 || !isDirect(open[0]!)) return JSON.stringify(open)
        links.push(open[0]!)
      }
      return links[0]!.direction === links[1]!.direction ? JSON.stringify(links) : undefined
    }
    await waitFor(
      async () => (await oneDirectLink()) === undefined,
      'one direct connection to stay open between the pages, the same one on both sides',
      SETTLE_MS,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${await oneDirectLink()}`)
    })
  }, 300_000)
})
