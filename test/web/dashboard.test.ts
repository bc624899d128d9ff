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
  }, 60_000)

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
  }, 60_000)

  it('topics: every partition with its leader, voters, high watermark and follower; this tab replicates as an observer', async () => {
    await showView(page, 'topics')
    const described = JSON.parse(await cli(['topics', 'describe', 'orders', '--format', 'json'], a)) as Array<{
      partitions: DescribedPartitionJson[]
    }>
    const partitions = described[0]!.partitions
    expect(partitions).toHaveLength(2)
    const table = `partitions-orders`
    for (const p of partitions) {
      const follower = p.voters.find((v) => v !== p.leader)!
      // The follower catches up within a fetch; wait until the page shows it at the leader's end.
      await expect
        .poll(
          async () => {
            const leaderRow = (await rowsOf(page, table, `tr.leader-row[data-partition="${p.partition}"]`))[0]
            const replicaRow = (
              await rowsOf(page, table, `tr.replica-row[data-partition="${p.partition}"][data-replica="${follower}"]`)
            )[0]
            // leader row: partition, replica, leader, epoch, voters, observers, in-sync, log start, hw, log end, lag
            return {
              leader: leaderRow?.[1],
              highWatermark: leaderRow?.[8],
              follower:
                replicaRow === undefined
                  ? undefined
                  : { role: replicaRow[1], logEnd: replicaRow[9], lag: replicaRow[10] },
            }
          },
          { timeout: 30_000 },
        )
        .toEqual({
          leader: 'leader',
          highWatermark: p.highWatermark,
          follower: { role: 'voter', logEnd: p.highWatermark, lag: '0' },
        })
      const leaderCell = page
        .getByTestId(table)
        .locator(`tr.leader-row[data-partition="${p.partition}"] td:nth-child(3) [data-peer-id]`)
      expect(await leaderCell.getAttribute('data-peer-id')).toBe(p.leader)
      const voterIds = await page
        .getByTestId(table)
        .locator(`tr.leader-row[data-partition="${p.partition}"] td:nth-child(5) [data-peer-id]`)
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-peer-id')))
      expect(voterIds.sort()).toEqual([...p.voters].sort())
    }
    expect(await page.locator('section.topic[data-topic="audit"]').count()).toBe(1)

    // The tab is a peer: asked to, it replicates 'orders' as an observer and catches up.
    const self = (await page.evaluate(() => document.body.dataset.selfId))!
    await page.getByTestId('observe-orders').click()
    await page.getByTestId('replicated-orders').waitFor({ timeout: 30_000 })
    for (const p of partitions) {
      await expect
        .poll(
          async () => {
            const row = (
              await rowsOf(page, table, `tr.replica-row[data-partition="${p.partition}"][data-replica="${self}"]`)
            )[0]
            return row === undefined ? undefined : { role: row[1], logEnd: row[9], lag: row[10] }
          },
          { timeout: 30_000 },
        )
        .toEqual({ role: 'observer', logEnd: p.highWatermark, lag: '0' })
    }
    await screenshot(page, 'topics')
  }, 60_000)

  it('groups: the live member and its assignment, committed offsets and lag', async () => {
    await showView(page, 'groups')
    const auditors = JSON.parse(await cli(['groups', 'describe', 'auditors', '--format', 'json'], a)) as {
      offsets: Array<{ topic: string; partition: number; offset: string; logEndOffset: string; lag: string }>
    }
    expect(auditors.offsets).toHaveLength(1)
    expect(auditors.offsets[0]!.lag).toBe('7')
    await expect
      .poll(() => rowsOf(page, 'offsets-auditors'), { timeout: 30_000 })
      .toEqual([['audit', '0', auditors.offsets[0]!.offset, auditors.offsets[0]!.logEndOffset, '7']])

    const billingNow = JSON.parse(await cli(['groups', 'describe', 'billing', '--format', 'json'], a)) as {
      members: Array<{ memberId: string }>
    }
    expect(billingNow.members).toHaveLength(1)
    await expect
      .poll(async () => (await rowsOf(page, 'members-billing')).map((cells) => [cells[0], cells[3]]), {
        timeout: 30_000,
      })
      .toEqual([[billingNow.members[0]!.memberId, 'orders[0,1]']])
    await screenshot(page, 'groups')
  }, 60_000)

  it('produce: a record sent from the form is acknowledged with its partition and offset', async () => {
    await showView(page, 'produce')
    await page.getByTestId('produce-topic').fill('orders')
    await page.getByTestId('produce-key').fill('user-web')
    await page.getByTestId('produce-value').fill('order from the dashboard')
    await page.getByTestId('produce-send').click()
    const result = page.locator('[data-testid="produce-result"][data-state="ok"]')
    await result.waitFor({ timeout: 30_000 })
    expect(await result.textContent()).toMatch(/^sent to orders partition [01] at offset \d+$/)
    await screenshot(page, 'produce')
  }, 60_000)

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
  }, 60_000)

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
  }, 60_000)

  it('storage: the browser’s estimate for this origin and this tab’s replicas', async () => {
    await showView(page, 'storage')
    const estimate = await page.evaluate(() => navigator.storage.estimate())
    await expect
      .poll(() => page.getByTestId('storage-quota').getAttribute('data-bytes'), { timeout: 20_000 })
      .toBe(String(estimate.quota))
    expect(Number(await page.getByTestId('storage-usage').getAttribute('data-bytes'))).toBeGreaterThanOrEqual(0)
    // The produce test's record went through this tab's outbox: delivered, none left.
    expect(await page.getByTestId('outbox').getAttribute('data-pending')).toBe('0')
    expect(await page.getByTestId('outbox-delivered').textContent()).toBe('1')
    expect(await page.getByTestId('outbox-online').getAttribute('data-online')).toBe('true')
    // The replicas of 'orders' this tab took in the topics test: two partitions, some bytes.
    await expect.poll(() => page.getByTestId('peer-replicas').textContent(), { timeout: 20_000 }).toBe('2')
    expect(Number(await page.getByTestId('peer-log-bytes').getAttribute('data-bytes'))).toBeGreaterThan(0)
    await screenshot(page, 'storage')
  }, 60_000)
})
