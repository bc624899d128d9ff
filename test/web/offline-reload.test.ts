/**
 * Offline: the page sends 1,000 records, is reloaded mid-way, comes back online; every record
 * arrives exactly once, in order (issue 7 §4).
 *
 * A page sends through the SDK's IndexedDB outbox against a real `tributary peer start` process.
 * After one acknowledged record (the outbox has met the mesh and learned the topic), the browser
 * context goes offline (Playwright's `setOffline`: on loopback it silently stops an open
 * WebSocket's traffic and fails new connections and page loads — checked when this test was
 * written) and the peer process is stopped. 500 records are queued offline and sealed (partition,
 * producer id and sequences fixed in IndexedDB). The page is reloaded — back online for the page
 * load itself, the mesh still unreachable — and the reloaded page queues 500 more: its producer id
 * and sequences continue from IndexedDB. Then the peer comes back on its ports and the page
 * online; right after the first batch is acknowledged the peer is frozen (SIGSTOP), so the next
 * batch sent stays unanswered, and the page is reloaded with it in flight; the peer resumes and the
 * reloaded page sends that batch again. `tributary consume` then reads the topic: the warm-up
 * record and 0…999, each once, in order.
 *
 * Browser restarts: records queued with the peer stopped stay in the profile's IndexedDB when the
 * browser quits; a browser started again on that profile drains them once the peer is back.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { killAllCli, runCli } from '../../apps/peer/test/helpers/run-cli.ts'
import { type PeerProcess, waitFor } from '../helpers/peer-process.ts'
import { closeAll, openBrowser, restartWebPeer, serveTestPage, startWebPeer } from './page.ts'
import type { ReportedEvent, StoredOutbox } from './pages/offline-reload.ts'

const TOPIC = 'offline-reload'
const RECORDS = 1000
const HALF = RECORDS / 2
/** Records per batch at most: the drain is 200 batches or more, one in flight at a time. */
const BATCH = 5
const SETTLE_MS = 60_000
/** Records queued before the browser quits in the restart test. */
const RESTART_RECORDS = 200

interface Recorded extends ReportedEvent {
  /** Page loads so far when the test received the event (1: the first load). */
  load: number
}

/** Sealed batches tile their sequences: each starts where the one before ended. */
function contiguous(batches: StoredOutbox['batches']): boolean {
  return batches.every((b, i) => i === 0 || b.baseSequence === batches[i - 1]!.baseSequence + batches[i - 1]!.records)
}

describe('web > offline outbox across reloads', () => {
  let peer: PeerProcess
  let url: string
  const events: Recorded[] = []
  let loads = 0
  /** Frozen with SIGSTOP as the first batch is acknowledged while this is set. */
  let freezeAtDelivery: PeerProcess | undefined
  let frozen = false

  beforeAll(async () => {
    url = await serveTestPage('offline-reload.html')
    peer = await startWebPeer()
    const created = await runCli(
      ['topics', 'create', TOPIC, '--partitions', '1', '--replication-factor', '1', '--peer', peer.address],
      { timeoutMs: 45_000 },
    )
    expect(created.status, created.stderr).toBe(0)
  }, 180_000)

  afterEach((ctx) => {
    if (ctx.task.result?.state !== 'fail') return
    console.info(
      `--- outbox events (last 60)\n${events
        .slice(-60)
        .map((e) => JSON.stringify(e))
        .join('\n')}`,
    )
    console.info(`--- peer output (tail)\n${peer.output().slice(-4000)}`)
  })

  afterAll(async () => {
    if (frozen) peer.proc.kill('SIGCONT')
    killAllCli()
    await closeAll()
  }, 120_000)

  it('1,000 records sent offline across a reload arrive exactly once, in order, also with a reload during the drain', async () => {
    const { context, page } = await openBrowser()
    // Exposed on the context: there again on the reloaded page, before its script runs.
    await context.exposeFunction('reportOutbox', (event: ReportedEvent) => {
      events.push({ ...event, load: loads })
      if (event.type === 'outbox.delivered' && freezeAtDelivery !== undefined) {
        freezeAtDelivery.proc.kill('SIGSTOP')
        freezeAtDelivery = undefined
        frozen = true
      }
    })
    page.on('load', () => {
      loads++
    })
    const ready = () => page.waitForFunction(() => typeof window.offline === 'object', undefined, { timeout: 30_000 })
    const stored = () => page.evaluate(() => window.offline.stored())

    const ws = peer.addresses.find((a) => a.includes('/ws/'))
    expect(ws).toBeDefined()
    const query = new URLSearchParams({ topic: TOPIC, name: 'offline-reload', batch: String(BATCH) })
    query.append('bootstrap', ws!)
    await page.goto(`${url}?${query}`)
    await ready()
    await page.evaluate(() => window.offline.send('warm-up'))
    const { producerId } = await stored()

    // Offline: the browser's network off, and the mesh gone too (the reload below needs the network).
    await context.setOffline(true)
    await page.waitForFunction(() => !navigator.onLine)
    await peer.stop('SIGTERM')
    await page.evaluate((n) => window.offline.enqueue(0, n), HALF)
    expect(await page.evaluate(() => window.offline.pending())).toBe(HALF)
    // Sealed while offline, by the partition count learned before: sequences fixed before the reload.
    const sealedBefore = await waitFor(
      async () => {
        const s = await stored()
        return s.batches.reduce((n, b) => n + b.records, 0) === HALF ? s : undefined
      },
      'the first half sealed while offline',
      SETTLE_MS,
    )
    expect(sealedBefore.producerId).toBe(producerId)
    // The warm-up record had sequence 0.
    expect(sealedBefore.batches[0]!.baseSequence).toBe(1)
    expect(contiguous(sealedBefore.batches)).toBe(true)

    // Reload mid-way: the page loads over the network, the mesh is still out of reach.
    await context.setOffline(false)
    await page.reload()
    await ready()
    expect(loads).toBe(2)
    await page.evaluate(([from, n]) => window.offline.enqueue(from, n), [HALF, RECORDS - HALF] as const)
    expect(await page.evaluate(() => window.offline.pending())).toBe(RECORDS)
    const sealedAfter = await waitFor(
      async () => {
        const s = await stored()
        return s.batches.reduce((n, b) => n + b.records, 0) === RECORDS ? s : undefined
      },
      'the second half sealed by the reloaded page while the mesh is out of reach',
      SETTLE_MS,
    )
    // The reloaded page continued the producer id and the sequences from IndexedDB.
    expect(sealedAfter.producerId).toBe(producerId)
    // Batches sealed before the reload kept their sequences (a last one never sent may have grown).
    for (const [i, before] of sealedBefore.batches.entries()) {
      const after = sealedAfter.batches[i]!
      expect({ ...after, records: 0 }).toEqual({ ...before, records: 0 })
      expect(after.records).toBeGreaterThanOrEqual(before.records)
    }
    expect(contiguous(sealedAfter.batches)).toBe(true)
    expect(new Set(sealedAfter.batches.map((b) => b.producerEpoch)).size).toBe(1)
    const deliveredOffline = events.filter((e) => e.type === 'outbox.delivered')
    expect(deliveredOffline).toHaveLength(1)

    // Back online, and a reload while the drain is in flight: the peer comes back while the page
    // is offline; once the page is online and the first batch is acknowledged, the peer is frozen
    // (SIGSTOP) so the batch the page sends next stays unanswered, and the page is reloaded.
    await context.setOffline(true)
    await page.waitForFunction(() => !navigator.onLine)
    peer = await restartWebPeer(peer)
    const seenBefore = events.length
    freezeAtDelivery = peer
    await context.setOffline(false)
    await waitFor(() => frozen || undefined, 'the first batch of the drain acknowledged', SETTLE_MS)
    const sequenceOf = new Map(sealedAfter.batches.map((b) => [b.id, b.baseSequence]))
    const unanswered = (load: number): number[] => {
      const drained = events.slice(seenBefore).filter((e) => e.load === load)
      const delivered = new Set(
        drained.filter((e) => e.type === 'outbox.delivered').map((e) => sequenceOf.get(e.recordIds?.[0] ?? -1)),
      )
      return drained
        .filter((e) => e.type === 'outbox.request' && !delivered.has(e.baseSequence))
        .map((e) => e.baseSequence!)
    }
    await waitFor(() => unanswered(2).length > 0 || undefined, 'a batch sent to the frozen peer', SETTLE_MS)
    await page.reload()
    await ready()
    expect(loads).toBe(3)
    peer.proc.kill('SIGCONT')
    await waitFor(
      async () => (await page.evaluate(() => window.offline.pending())) === 0 || undefined,
      'the outbox to drain',
      SETTLE_MS,
    )

    const drain = events.slice(seenBefore)
    const requests = (load: number) => drain.filter((e) => e.load === load && e.type === 'outbox.request')
    const delivered = (load: number) => drain.filter((e) => e.load === load && e.type === 'outbox.delivered')
    // The reload cut the drain: batches acknowledged before it, one sent and unanswered, the rest after.
    expect(delivered(2).length).toBeGreaterThan(0)
    expect(delivered(2).length).toBeLessThan(sealedAfter.batches.length)
    expect(unanswered(2).length).toBeGreaterThan(0)
    // The reloaded page sent the unanswered batch again, with its sealed sequence: the leader
    // (which may have appended it once resumed) answers the copy as a duplicate.
    expect(unanswered(2)).toContain(requests(3)[0]?.baseSequence)
    const sealed = new Set(sealedAfter.batches.map((b) => `${b.baseSequence}+${b.records}`))
    for (const e of [...requests(2), ...requests(3)]) {
      expect(sealed.has(`${e.baseSequence}+${e.records}`), JSON.stringify(e)).toBe(true)
    }
    console.info(
      `drain: ${sealedAfter.batches.length} batches; before the reload ${requests(2).length} requests, ` +
        `${delivered(2).length} acknowledged, unanswered at sequences ${unanswered(2).join(', ')}; ` +
        `after it ${requests(3).length} requests, the first at sequence ${requests(3)[0]?.baseSequence}`,
    )

    // Everything on the topic (the consumer exits once nothing more arrives): no duplicate, no gap.
    const consumed = await runCli(
      ['consume', TOPIC, '--from-beginning', '--format', 'json', '--timeout-ms', '10000', '--peer', peer.address],
      { timeoutMs: 90_000 },
    )
    expect(consumed.status, consumed.stderr).toBe(0)
    const records = consumed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { offset: number; value: string })
    expect(records.map((r) => r.value)).toEqual(['warm-up', ...Array.from({ length: RECORDS }, (_, i) => String(i))])
    // In offset order (a leader's marker batches, at its start and after the restart, take offsets too).
    const offsets = records.map((r) => Number(r.offset))
    expect(offsets).toEqual([...offsets].sort((x, y) => x - y))
  }, 300_000)

  it('records queued while the mesh is out of reach survive a browser restart and arrive once, in order', async () => {
    const topic = 'offline-restart'
    const created = await runCli(
      ['topics', 'create', topic, '--partitions', '1', '--replication-factor', '1', '--peer', peer.address],
      { timeoutMs: 45_000 },
    )
    expect(created.status, created.stderr).toBe(0)
    const profile = await mkdtemp(join(tmpdir(), 'tributary-web-restart-'))
    const ws = peer.addresses.find((a) => a.includes('/ws/'))
    const query = new URLSearchParams({ topic, name: 'offline-restart', batch: String(BATCH) })
    query.append('bootstrap', ws!)
    const start = async () => {
      const { context, page } = await openBrowser({ profile })
      await context.exposeFunction('reportOutbox', () => {})
      await page.goto(`${url}?${query}`)
      await page.waitForFunction(() => typeof window.offline === 'object', undefined, { timeout: 30_000 })
      return { context, page }
    }

    const first = await start()
    await first.page.evaluate(() => window.offline.send('warm-up'))
    await peer.stop('SIGTERM')
    await first.page.evaluate((n) => window.offline.enqueue(0, n), RESTART_RECORDS)
    expect(await first.page.evaluate(() => window.offline.pending())).toBe(RESTART_RECORDS)
    // The browser quits with everything queued (its IndexedDB is on the profile's disk).
    await first.context.close()

    peer = await restartWebPeer(peer)
    const second = await start()
    await waitFor(
      async () => (await second.page.evaluate(() => window.offline.pending())) === 0 || undefined,
      'the restarted browser to drain the outbox',
      SETTLE_MS,
    )
    const consumed = await runCli(
      ['consume', topic, '--from-beginning', '--format', 'json', '--timeout-ms', '10000', '--peer', peer.address],
      { timeoutMs: 90_000 },
    )
    expect(consumed.status, consumed.stderr).toBe(0)
    const values = consumed.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { value: string }).value)
    expect(values).toEqual(['warm-up', ...Array.from({ length: RESTART_RECORDS }, (_, i) => String(i))])
    await rm(profile, { recursive: true, force: true })
  }, 240_000)
})
