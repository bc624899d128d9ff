/**
 * A browser member of a consumer group with a `groupInstanceId` reloads without triggering a
 * rebalance (issue 7 §4), in real Chromium against a real peer process: a page runs an SDK
 * consumer in the group as static member `tab-1`, this process runs a dynamic member; the page
 * is reloaded and records are produced while its consumer is away; the page's consumer rejoins
 * as `tab-1` and takes its partitions back. The group's generation does not move, the Node
 * member hears of no rebalance (no join, revoke, assign or loss) — not even once the old
 * session would have run out — and the page resumes at its committed offsets: every record is
 * processed, none skipped, none twice.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Consumer, Tributary } from '@tributary/client'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumArgs, chromiumPath } from '../chromium.ts'
import { type PeerProcess, startPeerProcess, waitFor } from '../helpers/peer-process.ts'
import { closeAll, serveTestPage } from './page.ts'
import type { GroupEvent, ProcessedRecord } from './pages/static-member.ts'

const GROUP = 'web-static'
const TOPIC = 'web-static-orders'
const PARTITIONS = 4
const INSTANCE = 'tab-1'
/** Comfortably above a reload (a fresh page connecting and joining) on a loaded machine. */
const SESSION_MS = 20_000
const SETTLE_MS = 60_000
const PER_PARTITION = 5

interface Processed extends ProcessedRecord {
  by: 'page' | 'node'
  /** How many reloads the page had gone through when it processed the record. */
  reloads: number
}

let root: string | undefined
let peer: PeerProcess | undefined
let pageUrl: string | undefined
let context: BrowserContext | undefined
let client: Tributary | undefined
let nodeMember: Consumer | undefined

const processed: Processed[] = []
const pageEvents: Array<GroupEvent & { reloads: number }> = []
const nodeEvents: string[] = []
let reloads = 0

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-web-static-'))
  pageUrl = await serveTestPage('static-member.html')
  peer = await startPeerProcess(join(root, 'peer'))
  client = await Tributary.connect({ bootstrap: [peer.address], connectionTimeout: 30_000 })
  await client.admin().createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS, replicationFactor: 1 }] })
}, 120_000)

afterAll(async () => {
  await context?.close().catch(() => {})
  await nodeMember?.disconnect().catch(() => {})
  await client?.disconnect().catch(() => {})
  await peer?.stop('SIGTERM')
  await closeAll()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
}, 60_000)

const sorted = (xs: Iterable<number>): number[] => [...xs].sort((a, b) => a - b)

/** Sends `PER_PARTITION` records to each partition, values `<tag>-<partition>-<i>`. */
async function produce(tag: string): Promise<string[]> {
  const producer = client!.producer()
  const messages = Array.from({ length: PARTITIONS * PER_PARTITION }, (_, i) => ({
    partition: i % PARTITIONS,
    value: `${tag}-${i % PARTITIONS}-${Math.floor(i / PARTITIONS)}`,
  }))
  try {
    await producer.send({ topic: TOPIC, acks: 'all', messages })
  } finally {
    await producer.disconnect()
  }
  return messages.map((m) => m.value)
}

const valuesSeen = (): Set<string> => new Set(processed.map((p) => p.value))

async function pagePartitions(): Promise<number[]> {
  const described = await client!.admin().describeGroup(GROUP)
  const member = described.members.find((m) => m.groupInstanceId === INSTANCE)
  return sorted(member?.assignment.flatMap((a) => a.partitions) ?? [])
}

describe('web > a static group member in a page', () => {
  it('reloads without a rebalance and resumes at its committed offsets', async () => {
    context = await chromium.launchPersistentContext(join(root!, 'profile'), {
      executablePath: chromiumPath(),
      args: chromiumArgs,
      headless: true,
    })
    // Exposed on the context: they are there again on the reloaded page, before its script runs.
    await context.exposeFunction('reportProcessed', (record: ProcessedRecord) => {
      processed.push({ ...record, by: 'page', reloads })
    })
    await context.exposeFunction('reportGroupEvent', (event: GroupEvent) => {
      pageEvents.push({ ...event, reloads })
    })
    const page: Page = context.pages()[0] ?? (await context.newPage())

    nodeMember = client!.consumer({
      groupId: GROUP,
      sessionTimeout: SESSION_MS,
      heartbeatInterval: 500,
      rebalanceTimeout: 10_000,
      autoCommitInterval: 100,
      maxWaitTimeInMs: 200,
    })
    for (const event of [
      'consumer.group_join',
      'consumer.rebalancing',
      'consumer.partitions_assigned',
      'consumer.partitions_revoked',
      'consumer.partitions_lost',
    ] as const) {
      nodeMember.on(event, () => nodeEvents.push(event))
    }
    await nodeMember.subscribe({ topics: [TOPIC], fromBeginning: true })
    await nodeMember.run({
      eachMessage: async ({ partition, message }) => {
        processed.push({
          partition,
          offset: message.offset,
          value: message.value?.toString() ?? '',
          by: 'node',
          reloads,
        })
      },
    })

    const ws = peer!.addresses.find((a) => a.includes('/ws/'))
    expect(ws).toBeDefined()
    const query = new URLSearchParams({ group: GROUP, topic: TOPIC, instance: INSTANCE, session: String(SESSION_MS) })
    query.append('bootstrap', ws!)
    await page.goto(`${pageUrl!}?${query}`)

    // Both members own two partitions each.
    const split = await waitFor(
      async () => {
        const described = await client!.admin().describeGroup(GROUP)
        const owned = described.members.map((m) => m.assignment.flatMap((a) => a.partitions).length)
        return described.state === 'Stable' && described.members.length === 2 && owned.every((n) => n === 2)
          ? described
          : undefined
      },
      'the page and the Node member to share the partitions 2-2',
      SETTLE_MS,
    )
    expect(split.members.filter((m) => m.groupInstanceId === INSTANCE)).toHaveLength(1)
    const pageOwned = await pagePartitions()
    const nodeOwned = sorted(nodeMember.assignment().flatMap((t) => t.partitions))
    expect(sorted([...pageOwned, ...nodeOwned])).toEqual([0, 1, 2, 3])

    // Records read and committed before the reload: the page stops with nothing in flight.
    const first = await produce('a')
    await waitFor(() => first.every((v) => valuesSeen().has(v)) || undefined, 'the first records processed', SETTLE_MS)
    const committed = await waitFor(
      async () => {
        const described = await client!.admin().describeGroup(GROUP)
        const ends = described.offsets.filter((o) => o.offset === o.logEndOffset)
        return ends.length === PARTITIONS ? described : undefined
      },
      'every partition committed up to its end',
      SETTLE_MS,
    )
    const committedAt = new Map(committed.offsets.map((o) => [o.partition, Number(o.offset)]))
    const before = committed.generation
    const nodeEventsBefore = [...nodeEvents]
    const pageJoinsBefore = pageEvents.filter((e) => e.type === 'group_join').length

    // The reload, with records produced while the page is gone and coming back.
    reloads = 1
    // Once the old document is gone (it could have read a record it then had no time to commit).
    await page.reload()
    const during = await produce('b')
    await waitFor(
      () => pageEvents.some((e) => e.reloads === 1 && e.type === 'group_join') || undefined,
      'the reloaded page to rejoin the group',
      SETTLE_MS,
    )
    await waitFor(
      () => during.every((v) => valuesSeen().has(v)) || undefined,
      'the records sent during the reload',
      SETTLE_MS,
    )
    const reloadedAt = Date.now()

    // Past the moment the old page's session would have run out: still no rebalance.
    await waitFor(
      () => Date.now() > reloadedAt + SESSION_MS + 1_000 || undefined,
      'the old session to run out',
      SESSION_MS + 10_000,
    )
    const after = await produce('c')
    await waitFor(
      () => after.every((v) => valuesSeen().has(v)) || undefined,
      'the records sent after the session',
      SETTLE_MS,
    )

    const described = await client!.admin().describeGroup(GROUP)
    expect(described.generation).toBe(before)
    expect(described.members.map((m) => m.groupInstanceId ?? 'dynamic').sort()).toEqual(['dynamic', INSTANCE])
    expect(await pagePartitions()).toEqual(pageOwned)
    expect(sorted(nodeMember.assignment().flatMap((t) => t.partitions))).toEqual(nodeOwned)
    expect(nodeEvents).toEqual(nodeEventsBefore)
    // The reloaded page joined once, and no member of the group was told of a rebalance.
    expect(pageEvents.filter((e) => e.type === 'group_join')).toHaveLength(pageJoinsBefore + 1)
    expect(pageEvents.filter((e) => e.type !== 'group_join' && e.type !== 'partitions_assigned')).toEqual([])

    // Every record processed exactly once, each partition by its owner, in offset order.
    const all = [...first, ...during, ...after]
    const twice = processed.filter((p) => processed.filter((q) => q.value === p.value).length > 1)
    expect(twice, JSON.stringify(twice)).toEqual([])
    expect(sorted(processed.map((p) => all.indexOf(p.value)))).toEqual(all.map((_, i) => i))
    for (const p of processed) expect(p.by).toBe(pageOwned.includes(p.partition) ? 'page' : 'node')
    for (const partition of pageOwned) {
      const offsets = processed.filter((p) => p.partition === partition).map((p) => Number(p.offset))
      expect(offsets).toEqual(sorted(offsets))
      // The reloaded page started exactly at the offset committed before the reload.
      const resumed = processed.find((p) => p.partition === partition && p.reloads === 1)
      expect(Number(resumed?.offset)).toBe(committedAt.get(partition))
    }
  }, 180_000)
})
