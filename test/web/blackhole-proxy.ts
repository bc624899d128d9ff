/**
 * A TCP proxy on loopback that can turn the connections passing through it into silently dead
 * ones: after `cut()`, both sockets of every connection open at that moment stay open and every
 * byte sent on them is discarded — what a connection looks like after a network change (Wi-Fi to
 * cellular, a NAT forgetting its mapping): writes succeed, nothing arrives, nothing closes.
 * Connections made after the cut pass as usual. Playwright's `setOffline` alone does not do this
 * on loopback (the old WebSocket carried traffic again once back online).
 */

import type { AddressInfo } from 'node:net'
import net from 'node:net'

export interface BlackholeProxy {
  port: number
  /** Connections ever accepted. */
  readonly accepted: number
  /** Makes every connection open now silently dead; later ones pass. Returns how many were cut. */
  cut(): number
  close(): Promise<void>
}

export async function startBlackholeProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<BlackholeProxy> {
  /** Every connection not yet closed (closed with the proxy); `live` are those not cut. */
  const all = new Set<{ client: net.Socket; upstream: net.Socket }>()
  const live = new Set<{ client: net.Socket; upstream: net.Socket }>()
  let accepted = 0
  const server = net.createServer((client) => {
    accepted++
    const upstream = net.connect(targetPort, targetHost)
    const pair = { client, upstream }
    all.add(pair)
    live.add(pair)
    client.pipe(upstream)
    upstream.pipe(client)
    const end = (): void => {
      all.delete(pair)
      live.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', done)
  })
  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted
    },
    cut() {
      for (const { client, upstream } of live) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        // Read and drop, so neither side's writes ever block or fail: they vanish.
        client.on('data', () => {})
        upstream.on('data', () => {})
        client.resume()
        upstream.resume()
      }
      const cut = live.size
      live.clear()
      return cut
    },
    close: () =>
      new Promise<void>((done) => {
        for (const { client, upstream } of all) {
          client.destroy()
          upstream.destroy()
        }
        server.close(() => done())
      }),
  }
}
