/**
 * Each tab of the app is its own peer, and a reloaded tab is the same peer again: its identity
 * and what it replicates live in IndexedDB under a per-tab slot (a Web Lock), in real Chromium
 * against a real peer process.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllCli, runCli } from '../../apps/peer/test/helpers/run-cli.ts'
import type { PeerProcess } from '../helpers/peer-process.ts'
import { buildWebApp, closeAll, openApp, openBrowser, screenshot, showView, startWebPeer } from './page.ts'

const selfId = (page: Page): Promise<string | undefined> => page.evaluate(() => document.body.dataset.selfId)

/** 1,000 records of 1 KB: a replica IndexedDB kept is plain in the tab's storage figures. */
const BULK = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, '0')}${'x'.repeat(996)}`)
const BULK_BYTES = BULK.length * 1000

/** This tab's replica of kept-0 as the leader reports it: the offset its fetches reached. */
const replicaEnd = (page: Page, id: string): Promise<string | null> =>
  page
    .locator(`tr.replica-row[data-partition="0"][data-replica="${id}"] td:nth-child(10)`)
    .first()
    .textContent({ timeout: 1000 })
    .catch(() => null)

describe('web app > a tab is a peer', () => {
  let peer: PeerProcess
  let context: Awaited<ReturnType<typeof openBrowser>>['context']
  let first: Page

  beforeAll(async () => {
    await buildWebApp()
    peer = await startWebPeer()
    ;({ context, page: first } = await openBrowser())
    const created = await runCli(
      ['topics', 'create', 'kept', '--partitions', '1', '--replication-factor', '1', '--peer', peer.address],
      { timeoutMs: 30_000 },
    )
    expect(created.status, created.stderr).toBe(0)
    const produced = await runCli(['produce', 'kept', '--peer', peer.address], {
      input: BULK.join('\n') + '\n',
      timeoutMs: 60_000,
    })
    expect(produced.status, produced.stderr).toBe(0)
  }, 120_000)

  afterAll(async () => {
    killAllCli()
    await closeAll()
  }, 60_000)

  it('a reloaded tab comes back as the same peer, still replicating what it chose', async () => {
    await openApp(first, peer, 'topics')
    const before = await selfId(first)
    expect(before).toMatch(/^12D3Koo/)
    await first.getByTestId('observe-kept').click()
    await first.getByTestId('replicated-kept').waitFor({ timeout: 30_000 })

    // The leader's log end of kept-0 (its marker batch comes before the records).
    const end = await first.locator('tr.leader-row[data-partition="0"] td:nth-child(10)').first().textContent()
    expect(Number(end)).toBeGreaterThanOrEqual(BULK.length)
    await expect.poll(() => replicaEnd(first, before!), { timeout: 30_000 }).toBe(end!)

    await first.reload()
    await expect.poll(() => selfId(first), { timeout: 30_000 }).toBe(before)
    // The replica came back from IndexedDB with the tab (no click this time): all of it, in the
    // tab's storage figures, and its fetches go on from its log end — the next records arrive
    // after the kept ones (a fetch from 0 would find them already there).
    await showView(first, 'storage')
    await expect.poll(() => first.getByTestId('peer-replicas').textContent(), { timeout: 30_000 }).toBe('1')
    await expect
      .poll(async () => Number(await first.getByTestId('peer-log-bytes').getAttribute('data-bytes')), {
        timeout: 30_000,
      })
      .toBeGreaterThan(BULK_BYTES)
    await first.locator('[data-testid="status"][data-state="online"]').waitFor({ timeout: 45_000 })
    await showView(first, 'topics')
    await first.getByTestId('replicated-kept').waitFor({ timeout: 30_000 })
    const more = await runCli(['produce', 'kept', '--peer', peer.address], { input: 'd\ne\n', timeoutMs: 30_000 })
    expect(more.status, more.stderr).toBe(0)
    await expect.poll(() => replicaEnd(first, before!), { timeout: 30_000 }).toBe(String(Number(end) + 2))
  }, 120_000)

  it('a second tab is another peer; both are browsers in the mesh', async () => {
    const second = await context.newPage()
    try {
      await openApp(second, peer, 'peers')
      const a = (await selfId(first))!
      const b = (await selfId(second))!
      expect(b).toMatch(/^12D3Koo/)
      expect(b).not.toBe(a)
      for (const id of [a, b]) {
        await expect
          .poll(
            () =>
              second
                .locator(`[data-testid="peers-table"] tr[data-peer="${id}"] td:nth-child(2)`)
                .textContent()
                .catch(() => undefined),
            { timeout: 30_000 },
          )
          .toBe('browser')
      }
      await screenshot(second, 'two-tabs-peers')
    } finally {
      await second.close()
    }
  }, 120_000)
})
