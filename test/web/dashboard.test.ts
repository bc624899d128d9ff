/**
 * Every dashboard view against a real two-peer mesh, screenshotted to test-artifacts/web/ and
 * checked against what the command line reports for the same mesh: peer ids, topic/partition
 * rows with replicas and high watermarks, group members and assignments, committed offsets and
 * lag, throughput and lag charts, storage.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliProcess, killAllCli, runCli, startCli } from '../../apps/peer/test/helpers/run-cli.ts'
import { health, type PeerProcess, waitFor } from '../helpers/peer-process.ts'
import { buildWebApp, closeAll, openApp, openBrowser, screenshot, showView, startWebPeer } from './page.ts'

interface DescribedPartitionJson {
  partition: number
  leader: string
  voters: string[]
  highWatermark: string
}

async function cli(args: string[], peer: PeerProcess, input?: string): Promise<string> {
  const run = await runCli([...args, '--peer', peer.address], {
    timeoutMs: 45_000,
    ...(input === undefined ? {} : { input }),
  })
  if (run.status !== 0) throw new Error(`tributary ${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return run.stdout
}

interface PartitionView {
  partition: number
  leader: string
  highWatermark: string
  voters: string[]
  follower: { peerId: string; role: string; logEnd: string; lag: string } | undefined
  observer?: { peerId: string; role: string; logEnd: string; lag: string } | undefined
}

/** A topic's partition rows as the page shows them; `observer` is the row of replica `observerId`. */
function pageView(page: Page, topic: string, observerId?: string): Promise<PartitionView[]> {
  return page.getByTestId(`partitions-${topic}`).evaluate((table, observerId) => {
    const text = (tr: Element | null, column: number) => (tr?.children[column]?.textContent ?? '').trim()
    const replica = (tr: Element | null) =>
      tr === null
        ? undefined
        : { peerId: tr.getAttribute('data-replica') ?? '', role: text(tr, 1), logEnd: text(tr, 9), lag: text(tr, 10) }
    // Columns: partition, replica, leader, epoch, voters, observers, in-sync, log start, hw, log end, lag.
    return [...table.querySelectorAll('tr.leader-row')].map((row) => {
      const partition = row.getAttribute('data-partition') ?? ''
      const leader = row.getAttribute('data-replica') ?? ''
      const voters = [...row.children[4]!.querySelectorAll('[data-peer-id]')].map(
        (el) => el.getAttribute('data-peer-id')!,
      )
      const rows = [...table.querySelectorAll(`tr.replica-row[data-partition="${partition}"]`)]
      const follower = rows.find((r) => {
        const id = r.getAttribute('data-replica')
        return id !== leader && voters.includes(id ?? '')
      })
      const view = {
        partition: Number(partition),
        leader,
        highWatermark: text(row, 8),
        voters: voters.sort(),
        follower: replica(follower ?? null),
      }
      if (observerId === undefined) return view
      return { ...view, observer: replica(rows.find((r) => r.getAttribute('data-replica') === observerId) ?? null) }
    })
  }, observerId)
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** A read-only CLI command's JSON answer, retried while the mesh settles (e.g. a coordinator moving). */
function cliJson<T>(args: string[], peer: PeerProcess): Promise<T> {
  return waitFor(
    async () => JSON.parse(await cli([...args, '--format', 'json'], peer)) as T,
    `tributary ${args.join(' ')}`,
    45_000,
  )
}

/** The text of each cell of each body row of a table, by its data-testid. */
function rowsOf(page: Page, testId: string, rowSelector = 'tbody tr'): Promise<string[][]> {
  return page
    .getByTestId(testId)
    .locator(rowSelector)
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())))
}

describe('web app > dashboard views', () => {
  let a: PeerProcess
  let b: PeerProcess
  let page: Page
  let billing: CliProcess

  beforeAll(async () => {
    await buildWebApp()
    a = await startWebPeer()
    b = await startWebPeer([a.address])
    await waitFor(
      async () => (await health(a)).peers === 2 && (await health(b)).peers === 2,
      'two peers to meet',
      30_000,
    )

    await cli(['topics', 'create', 'orders', '--partitions', '2', '--replication-factor', '2'], a)
    await cli(['topics', 'create', 'audit', '--partitions', '1', '--replication-factor', '1'], a)
    const orders = Array.from({ length: 12 }, (_, i) => `user-${i}:order ${i}`)
    await cli(['produce', 'orders', '--key-separator', ':'], a, `${orders.join('\n')}\n`)
    const audits = Array.from({ length: 10 }, (_, i) => `audit ${i}`)
    await cli(['produce', 'audit'], a, `${audits.join('\n')}\n`)
    // 'auditors' reads 3 of the 10 records and leaves: its lag stays at 7.
    await cli(['consume', 'audit', '--group', 'auditors', '--from-beginning', '--max-messages', '3'], a)
    // 'billing' keeps a member: it owns both partitions of 'orders'.
    billing = startCli(['consume', 'orders', '--group', 'billing', '--from-beginning', '--peer', a.address], {
      timeoutMs: 300_000,
    })
    await waitFor(
      () => billing.stdout().trim().split('\n').length >= orders.length,
      'billing to read every order',
      60_000,
    )

    ;({ page } = await openBrowser())
    await openApp(page, a)
  }, 240_000)

  afterAll(async () => {
    killAllCli()
    await closeAll()
  }, 120_000)

  it('peers: both Node peers as voters, and this tab as a browser observer', async () => {
    await showView(page, 'peers')
    expect(await page.evaluate(() => document.body.dataset.source)).toBe('peer')
    const self = (await page.evaluate(() => document.body.dataset.selfId))!
    expect(self).toMatch(/^12D3Koo/)
    expect([a.peerId, b.peerId]).not.toContain(self)
    const rows = page.getByTestId('peers-table').locator('tbody tr')
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3)
    // Columns: peer, kind, transport, role, connection, link from this tab, status, version, notes.
    for (const peer of [a, b]) {
      const cells = (await rowsOf(page, 'peers-table', `tr[data-peer="${peer.peerId}"]`))[0]!
      expect(cells.slice(1, 5)).toEqual(['node', 'tcp, ws', 'voter', 'direct'])
      expect(cells[6]).toBe('alive')
    }
    const servedBy = (await rowsOf(page, 'peers-table', `tr[data-peer="${a.peerId}"]`))[0]!
    expect(servedBy[5]).toContain('ws direct')
    expect(servedBy[8]).toContain('served this page')
    await expect
      .poll(async () => (await rowsOf(page, 'peers-table', `tr[data-peer="${self}"]`))[0]?.slice(1, 4), {
        timeout: 30_000,
      })
      .toEqual(['browser', 'relay, webrtc', 'observer'])
    const selfRow = (await rowsOf(page, 'peers-table', `tr[data-peer="${self}"]`))[0]!
    expect(selfRow[6]).toBe('alive')
    expect(selfRow[8]).toContain('this tab')
    expect(await page.getByTestId('self').locator('[data-peer-id]').getAttribute('data-peer-id')).toBe(self)
    await screenshot(page, 'peers')
  }, 120_000)

  it('topics: every partition with its leader, voters, high watermark and follower; this tab replicates as an observer', async () => {
    await showView(page, 'topics')
    // The page and the CLI each ask the leaders; a leader change (which appends a marker batch)
    // or a leader busy for one request may make one answer differ for a moment, so both are
    // re-read until they agree.
    const cliView = async (): Promise<PartitionView[]> => {
      const described = await cliJson<Array<{ partitions: DescribedPartitionJson[] }>>(
        ['topics', 'describe', 'orders'],
        a,
      )
      return described[0]!.partitions.map((p) => ({
        partition: p.partition,
        leader: p.leader,
        highWatermark: p.highWatermark,
        voters: [...p.voters].sort(),
        follower: { peerId: p.voters.find((v) => v !== p.leader)!, role: 'voter', logEnd: p.highWatermark, lag: '0' },
      }))
    }
    let last: { cli: PartitionView[] | undefined; page: PartitionView[] | undefined } = {
      cli: undefined,
      page: undefined,
    }
    await waitFor(
      async () => {
        const now = { cli: await cliView(), page: await pageView(page, 'orders') }
        last = now
        return now.cli.length === 2 && now.cli.every((p) => p.highWatermark !== '-1') && same(now.cli, now.page)
      },
      'the page and tributary topics describe to agree on orders',
      60_000,
    ).catch(() => {})
    expect(last.page).toEqual(last.cli)
    expect(await page.locator('section.topic[data-topic="audit"]').count()).toBe(1)

    // The tab is a peer: asked to, it replicates 'orders' as an observer and catches up to the
    // high watermark its leader reports (row and leader from the same answer).
    const self = (await page.evaluate(() => document.body.dataset.selfId))!
    await page.getByTestId('observe-orders').click()
    await page.getByTestId('replicated-orders').waitFor({ timeout: 30_000 })
    await expect
      .poll(
        async () =>
          (await pageView(page, 'orders', self)).map((p) => ({
            partition: p.partition,
            observer: p.observer,
            caughtUp: p.observer?.logEnd === p.highWatermark,
          })),
        { timeout: 45_000 },
      )
      .toEqual(
        [0, 1].map((partition) => ({
          partition,
          observer: { peerId: self, role: 'observer', logEnd: expect.any(String), lag: '0' },
          caughtUp: true,
        })),
      )
    await screenshot(page, 'topics')
  }, 150_000)

  it('groups: the live member and its assignment, committed offsets and lag', async () => {
    await showView(page, 'groups')
    const auditors = await cliJson<{
      offsets: Array<{ topic: string; partition: number; offset: string; logEndOffset: string; lag: string }>
    }>(['groups', 'describe', 'auditors'], a)
    expect(auditors.offsets).toHaveLength(1)
    expect(auditors.offsets[0]!.lag).toBe('7')
    await expect
      .poll(() => rowsOf(page, 'offsets-auditors'), { timeout: 30_000 })
      .toEqual([['audit', '0', auditors.offsets[0]!.offset, auditors.offsets[0]!.logEndOffset, '7']])

    const billingNow = await cliJson<{ members: Array<{ memberId: string }> }>(['groups', 'describe', 'billing'], a)
    expect(billingNow.members).toHaveLength(1)
    await expect
      .poll(async () => (await rowsOf(page, 'members-billing')).map((cells) => [cells[0], cells[3]]), {
        timeout: 30_000,
      })
      .toEqual([[billingNow.members[0]!.memberId, 'orders[0,1]']])
    await screenshot(page, 'groups')
  }, 120_000)

  it('produce: a record sent from the form is acknowledged with its partition and offset', async () => {
    await showView(page, 'produce')
    await page.getByTestId('produce-topic').fill('orders')
    await page.getByTestId('produce-key').fill('user-web')
    await page.getByTestId('produce-value').fill('order from the dashboard')
    await page.getByTestId('produce-send').click()
    const result = page.locator('[data-testid="produce-result"][data-state="ok"]')
    await result.waitFor({ timeout: 60_000 })
    expect(await result.textContent()).toMatch(/^sent to orders partition [01] at offset \d+$/)
    await screenshot(page, 'produce')
  }, 120_000)

  it('live tail: records produced by the CLI, newest first', async () => {
    await showView(page, 'tail')
    await page.getByTestId('tail-topic').fill('orders')
    await page.getByTestId('tail-start').click()
    await page.locator('[data-testid="tail-state"][data-state="live"]').waitFor({ timeout: 30_000 })
    const lines = Array.from({ length: 20 }, (_, i) => `user-${i}:tailed ${i}`)
    await cli(['produce', 'orders', '--key-separator', ':'], a, `${lines.join('\n')}\n`)
    const rows = page.getByTestId('tail-table').locator('tbody tr')
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(lines.length)
    const shown = await rowsOf(page, 'tail-table')
    expect(shown.map((c) => `${c[3]}:${c[4]}`).sort()).toEqual([...lines].sort())
    await screenshot(page, 'tail')
  }, 120_000)

  it('charts: throughput shows records appended while the page watches, lag shows each group', async () => {
    await showView(page, 'charts')
    const line = (chart: string, name: string) => page.getByTestId(`${chart}-latest`).locator(`[data-line="${name}"]`)
    await expect.poll(() => line('chart-throughput', 'audit').count(), { timeout: 30_000 }).toBe(1)
    // Nothing was written to 'audit' since the page opened (RF 1: not even a leader change).
    expect(Number(await line('chart-throughput', 'audit').getAttribute('data-peak'))).toBe(0)
    const burst = Array.from({ length: 200 }, (_, i) => `audit burst ${i}`)
    await cli(['produce', 'audit'], a, `${burst.join('\n')}\n`)
    // 200 records between two polls (2 s apart, each bounded at 8 s): well above 5 records/s.
    await expect
      .poll(async () => Number(await line('chart-throughput', 'audit').getAttribute('data-peak')), { timeout: 30_000 })
      .toBeGreaterThan(5)
    // 'auditors' now lags by the 7 it left plus the burst; 'billing' has a line too.
    await expect.poll(() => line('chart-lag', 'auditors').getAttribute('data-latest'), { timeout: 30_000 }).toBe('207')
    expect(await line('chart-lag', 'billing').count()).toBe(1)
    expect(await page.getByTestId('chart-throughput').locator('.uplot canvas').count()).toBe(1)
    expect(await page.getByTestId('chart-lag').locator('.uplot canvas').count()).toBe(1)
    await screenshot(page, 'charts')
  }, 120_000)

  it('storage: the browser’s estimate for this origin and this tab’s replicas', async () => {
    await showView(page, 'storage')
    // The quota follows the disk's free space, which other processes change: compare within 5 %.
    const estimate = await page.evaluate(() => navigator.storage.estimate())
    await expect
      .poll(
        async () =>
          Math.abs(Number(await page.getByTestId('storage-quota').getAttribute('data-bytes')) - estimate.quota!) /
          estimate.quota!,
        { timeout: 20_000 },
      )
      .toBeLessThan(0.05)
    expect(Number(await page.getByTestId('storage-usage').getAttribute('data-bytes'))).toBeGreaterThanOrEqual(0)
    // The produce test's record went through this tab's outbox: delivered, none left.
    expect(await page.getByTestId('outbox').getAttribute('data-pending')).toBe('0')
    expect(await page.getByTestId('outbox-delivered').textContent()).toBe('1')
    expect(await page.getByTestId('outbox-online').getAttribute('data-online')).toBe('true')
    // The replicas of 'orders' this tab took in the topics test: two partitions, some bytes.
    await expect.poll(() => page.getByTestId('peer-replicas').textContent(), { timeout: 20_000 }).toBe('2')
    expect(Number(await page.getByTestId('peer-log-bytes').getAttribute('data-bytes'))).toBeGreaterThan(0)
    await screenshot(page, 'storage')
  }, 120_000)
})
