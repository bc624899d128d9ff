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
      input: 'a\nb\nc\n',
      timeoutMs: 30_000,
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

    await first.reload()
    await first.locator('[data-testid="status"][data-state="online"]').waitFor({ timeout: 45_000 })
    expect(await selfId(first)).toBe(before)
    // The replica came back from IndexedDB with the tab (no click this time).
    await first.getByTestId('replicated-kept').waitFor({ timeout: 30_000 })
    await showView(first, 'storage')
    await expect.poll(() => first.getByTestId('peer-replicas').textContent(), { timeout: 20_000 }).toBe('1')
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
