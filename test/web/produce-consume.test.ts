/**
 * The web app against real peers: a page served by `tributary peer start` joins the mesh and
 * produces, and `tributary consume` (a child process) receives it; `tributary produce` writes,
 * and the page's live tail shows it.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllCli, runCli } from '../../apps/peer/test/helpers/run-cli.ts'
import type { PeerProcess } from '../helpers/peer-process.ts'
import { buildWebApp, closeAll, openApp, openBrowser, startWebPeer } from './page.ts'

describe('web app > produce and tail against real peers', () => {
  let peer: PeerProcess
  let page: Page

  beforeAll(async () => {
    await buildWebApp()
    peer = await startWebPeer()
    ;({ page } = await openBrowser())
    const created = await runCli(
      ['topics', 'create', 'web-orders', '--partitions', '2', '--replication-factor', '1', '--peer', peer.address],
      { timeoutMs: 30_000 },
    )
    expect(created.status, created.stderr).toBe(0)
  }, 120_000)

  afterAll(async () => {
    killAllCli()
    await closeAll()
  }, 60_000)

  it('a record sent from the page is read by tributary consume', async () => {
    await openApp(page, peer, 'produce')
    await page.getByTestId('produce-topic').fill('web-orders')
    await page.getByTestId('produce-key').fill('tab-1')
    await page.getByTestId('produce-value').fill('hello from the page')
    await page.getByTestId('produce-send').click()
    const result = page.locator('[data-testid="produce-result"][data-state="ok"]')
    await result.waitFor({ timeout: 60_000 })
    const sent = /partition (\d+) at offset (\d+)/.exec((await result.textContent()) ?? '')
    expect(sent, 'the page reports where the record went').not.toBeNull()

    const consumed = await runCli(
      [
        'consume',
        'web-orders',
        '--from-beginning',
        '--max-messages',
        '1',
        '--format',
        'json',
        '--timeout-ms',
        '20000',
        '--peer',
        peer.address,
      ],
      { timeoutMs: 45_000 },
    )
    expect(consumed.status, consumed.stderr).toBe(0)
    const record = JSON.parse(consumed.stdout.trim()) as {
      partition: number
      offset: number
      key: string
      value: string
    }
    expect(record).toMatchObject({
      key: 'tab-1',
      value: 'hello from the page',
      partition: Number(sent![1]),
      offset: Number(sent![2]),
    })
  }, 120_000)

  it('records from tributary produce appear in the live tail', async () => {
    await openApp(page, peer, 'tail')
    await page.getByTestId('tail-topic').fill('web-orders')
    await page.getByTestId('tail-start').click()
    await page.locator('[data-testid="tail-state"][data-state="live"]').waitFor({ timeout: 30_000 })

    const lines = ['u1:first from the cli', 'u2:second from the cli', 'u3:third from the cli']
    const produced = await runCli(['produce', 'web-orders', '--key-separator', ':', '--peer', peer.address], {
      input: `${lines.join('\n')}\n`,
      timeoutMs: 45_000,
    })
    expect(produced.status, produced.stderr).toBe(0)

    const rows = page.getByTestId('tail-table').locator('tbody tr')
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(lines.length)
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    )
    // Columns: partition, offset, time, key, value. Only records produced after the tail started.
    expect(shown.map((cells) => `${cells[3]}:${cells[4]}`).sort()).toEqual([...lines].sort())
  }, 120_000)

  it('?mode=client: the page is a light client — not a member of the mesh — and still produces', async () => {
    await page.goto(`http://localhost:${peer.httpPort}/?mode=client#produce`)
    await page.locator('[data-testid="status"][data-state="online"]').waitFor({ timeout: 45_000 })
    expect(await page.evaluate(() => document.body.dataset.source)).toBe('sdk')
    await page.getByTestId('produce-topic').fill('web-orders')
    await page.getByTestId('produce-value').fill('from a light client')
    await page.getByTestId('produce-send').click()
    await page.locator('[data-testid="produce-result"][data-state="ok"]').waitFor({ timeout: 60_000 })

    await page.getByTestId('tab-peers').click()
    const rows = page.getByTestId('peers-table').locator('tbody tr')
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(0)
    // Only the Node peer: the light client is nobody's member (a peer tab from the tests above
    // may still be listed until its leave is gossiped, so look for this page's own id).
    const self = (await page.evaluate(() => document.body.dataset.selfId))!
    expect(await page.locator(`[data-testid="peers-table"] tr[data-peer="${self}"]`).count()).toBe(0)
    expect(await page.locator(`[data-testid="peers-table"] tr[data-peer="${peer.peerId}"]`).count()).toBe(1)

    const consumed = await runCli(
      ['consume', 'web-orders', '--from-beginning', '--format', 'json', '--timeout-ms', '5000', '--peer', peer.address],
      { timeoutMs: 45_000 },
    )
    const values = consumed.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { value: string }).value)
    expect(values.filter((v) => v === 'from a light client')).toHaveLength(1)
  }, 120_000)
})
