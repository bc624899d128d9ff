/**
 * A silently dead connection under the outbox (issue 7): after a real network change the
 * browser's WebSocket to its peer can stay open while nothing crosses it any more, and a request
 * sent on it is answered by nobody. The page reaches its peer through a loopback proxy that makes
 * the connection dead at the moment the browser context goes offline (Playwright's `setOffline`,
 * so the page sees the `offline` and `online` events of a network change; on loopback it alone
 * leaves the old WebSocket working once back online — measured: acknowledged 44 ms after the
 * `online` event — so the proxy does the killing). The page has delivered a record; it goes
 * offline, queues a record, and comes back online. That record must be acknowledged long before a
 * request sent over the dead connection would time out (31 s: the leader's 30 s acks=all timeout
 * and 1 s to travel) — which, before the light node closed dead connections, it never was.
 *
 * Two offline periods: longer than the connection monitor's ping window (the link is judged dead
 * while offline), and a short blip (the link is still taken for alive when the network is back:
 * the check made on the `online` event finds it dead).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { killAllCli, runCli } from '../../apps/peer/test/helpers/run-cli.ts'
import { type PeerProcess, waitFor } from '../helpers/peer-process.ts'
import { type BlackholeProxy, startBlackholeProxy } from './blackhole-proxy.ts'
import { closeAll, openBrowser, serveTestPage, startWebPeer } from './page.ts'

/**
 * The scenarios' offline periods (fixed inputs, not waits for something to happen). 20 s: longer
 * than libp2p's default ping window (a ping every 10 s, failing after at least 5 s) and the light
 * node's (5 s + 10 s). 1 s: shorter than any ping interval.
 */
const SCENARIOS = [
  { name: 'long', offlineMs: 20_000 },
  { name: 'blip', offlineMs: 1_000 },
] as const
/**
 * The deadline for the record queued offline, from the moment the browser is online again. A
 * request stuck on the dead connection is given up only after 31 s: 20 s is well below that, so
 * passing means the dead connection was not waited out, and it leaves a connection check (3 s at
 * most), a new dial, a metadata refresh and the produce round trip plenty of room on a loaded
 * machine (they take well under a second here).
 */
const DELIVERY_DEADLINE_MS = 20_000

describe('web > outbox after a silently dead connection', () => {
  let peer: PeerProcess
  let url: string
  const proxies: BlackholeProxy[] = []
  let events: () => Promise<unknown[]> = async () => []

  beforeAll(async () => {
    url = await serveTestPage('dead-connection.html')
    peer = await startWebPeer()
    for (const { name } of SCENARIOS) {
      const created = await runCli(
        ['topics', 'create', `dead-${name}`, '--partitions', '1', '--replication-factor', '1', '--peer', peer.address],
        { timeoutMs: 45_000 },
      )
      expect(created.status, created.stderr).toBe(0)
    }
  }, 180_000)

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return
    console.info(`--- page events\n${(await events().catch(() => [])).map((e) => JSON.stringify(e)).join('\n')}`)
    console.info(`--- peer output (tail)\n${peer.output().slice(-4000)}`)
  })

  afterAll(async () => {
    for (const proxy of proxies) await proxy.close()
    killAllCli()
    await closeAll()
  }, 120_000)

  for (const { name, offlineMs } of SCENARIOS) {
    it(`offline ${offlineMs} ms: a record queued offline is acknowledged soon after the network is back, not after a request timeout`, async () => {
      const topic = `dead-${name}`
      const { context, page } = await openBrowser()
      events = () => page.evaluate(() => window.dead.events())
      const wsPort = peer.addresses.map((a) => /\/tcp\/(\d+)\/ws\//.exec(a)?.[1]).find((p) => p !== undefined)
      expect(wsPort).toBeDefined()
      const proxy = await startBlackholeProxy(Number(wsPort))
      proxies.push(proxy)
      const query = new URLSearchParams({ topic })
      query.append('bootstrap', `/ip4/127.0.0.1/tcp/${proxy.port}/ws/p2p/${peer.peerId}`)
      await page.goto(`${url}?${query}`)
      await page.waitForFunction(() => typeof window.dead === 'object' || document.body.dataset.error, undefined, {
        timeout: 30_000,
      })
      expect(await page.evaluate(() => document.body.dataset.error)).toBeUndefined()
      // Connected: the outbox has reached the leader over the page's WebSocket, through the proxy.
      await page.evaluate(() => window.dead.send('before'))
      expect(proxy.accepted).toBe(1)

      // The network changes: the browser goes offline and its connection dies silently.
      await context.setOffline(true)
      expect(proxy.cut()).toBe(1)
      await page.waitForFunction(() => !navigator.onLine)
      const id = await page.evaluate(() => window.dead.enqueue('while offline'))
      await new Promise((resolve) => setTimeout(resolve, offlineMs))
      expect(await page.evaluate(() => window.dead.pending())).toBe(1)

      await context.setOffline(false)
      await page.waitForFunction(() => navigator.onLine)
      const delivered = await waitFor(
        async () => {
          const all = await page.evaluate(() => window.dead.events())
          const online = all.findLast((e) => e.type === 'online')
          const acked = all.find((e) => e.type === 'outbox.delivered' && e.recordIds?.includes(id))
          return online !== undefined && acked !== undefined ? { online, acked, all } : undefined
        },
        'the record queued offline to be acknowledged',
        DELIVERY_DEADLINE_MS,
      )
      const afterOnline = Math.round(delivered.acked.at - delivered.online.at)
      const retries = delivered.all.filter((e) => e.type === 'outbox.retry' && e.at > delivered.online.at)
      console.info(
        `offline ${offlineMs} ms; acknowledged ${afterOnline} ms after the online event` +
          (retries.length === 0 ? '' : `; retries after it: ${retries.map((e) => e.error).join(' | ')}`),
      )
      expect(afterOnline).toBeGreaterThanOrEqual(0)

      await page.evaluate(() => window.dead.send('after'))
      const consumed = await runCli(
        ['consume', topic, '--from-beginning', '--format', 'json', '--timeout-ms', '5000', '--peer', peer.address],
        { timeoutMs: 60_000 },
      )
      expect(consumed.status, consumed.stderr).toBe(0)
      const values = consumed.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { value: string }).value)
      expect(values).toEqual(['before', 'while offline', 'after'])
      await context.close()
    }, 180_000)
  }
})
