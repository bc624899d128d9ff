/**
 * The Tributary web app. It asks the peer that served it for bootstrap addresses, joins the mesh
 * (mesh-source.ts), then polls the mesh every POLL_MS and renders each view from the latest
 * snapshot. Views are tabs (`#peers`, `#topics`, …) so each can be linked and screenshotted.
 */
import './style.css'
import { type Bootstrap, fetchBootstrap } from './bootstrap.js'
import { errorText, h } from './dom.js'
import { connectMesh, type GroupDetail, type MeshSource } from './mesh-source.js'
import { startPagePeer } from './peer-source.js'
import { rates, Series } from './series.js'
import { Chart } from './views/charts.js'
import { renderGroups } from './views/groups.js'
import { renderPeers } from './views/peers.js'
import { mountProduce } from './views/produce.js'
import { type ConnectionState, setStatus } from './views/status.js'
import { readStorage, renderStorage, type StorageInfo } from './views/storage.js'
import { mountTail } from './views/tail.js'
import { renderTopics } from './views/topics.js'

const POLL_MS = 2_000
const POLL_TIMEOUT_MS = 8_000
const RECONNECT_MS = 5_000
/** Groups described per poll: each costs a coordinator round trip and offset lookups. */
const MAX_GROUPS = 20
const CHART_POINTS = 150
const NO_LINKS = 'offline: no connection to any peer of the mesh; reconnecting, showing the last data seen'

const VIEWS = [
  ['peers', 'Peers'],
  ['topics', 'Topics'],
  ['produce', 'Produce'],
  ['tail', 'Live tail'],
  ['groups', 'Groups'],
  ['charts', 'Charts'],
  ['storage', 'Storage'],
] as const
type ViewName = (typeof VIEWS)[number][0]

const statusEl = document.getElementById('status')!
const tabs = document.getElementById('tabs')!
const main = document.getElementById('views')!
const sections = new Map<ViewName, HTMLElement>()
for (const [name, title] of VIEWS) {
  const section = h('section', { class: 'view', 'data-view': name, 'data-testid': `view-${name}`, hidden: true })
  const body = h('div', { class: 'view-body' })
  section.append(h('h2', {}, title), body)
  sections.set(name, body)
  main.append(section)
  const tab = h('a', { href: `#${name}`, 'data-testid': `tab-${name}` }, title)
  tabs.append(tab)
}

function showView(): void {
  const wanted = location.hash.slice(1)
  const name: ViewName = VIEWS.some(([n]) => n === wanted) ? (wanted as ViewName) : 'peers'
  for (const section of main.querySelectorAll<HTMLElement>('section.view'))
    section.hidden = section.dataset.view !== name
  for (const tab of tabs.querySelectorAll<HTMLElement>('a'))
    tab.classList.toggle('active', tab.getAttribute('href') === `#${name}`)
  document.body.dataset.view = name
}
window.addEventListener('hashchange', showView)
showView()

let source: MeshSource | undefined
let bootstrap: Bootstrap | undefined
let storage: StorageInfo | undefined
let previousTotals: { timeMs: number; totals: Map<string, number> } | undefined
const throughput = new Series(CHART_POINTS)
const lag = new Series(CHART_POINTS)
const throughputChart = new Chart('Throughput: records appended per second, per topic', 'records/s', 'chart-throughput')
const lagChart = new Chart('Consumer lag: records behind the log end, per group', 'records', 'chart-lag')
sections.get('charts')!.append(throughputChart.element, lagChart.element)

const produce = mountProduce(sections.get('produce')!, () => source)
mountTail(sections.get('tail')!, () => source)

function status(state: ConnectionState, message: string): void {
  setStatus(statusEl, state, message)
}

async function connect(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    status('connecting', attempt === 1 ? 'connecting to the mesh…' : `connecting to the mesh (attempt ${attempt})…`)
    try {
      bootstrap = await fetchBootstrap('/bootstrap.json', AbortSignal.timeout(POLL_TIMEOUT_MS))
      // The tab is a peer of the mesh unless asked to be a light client (?mode=client).
      source =
        new URLSearchParams(location.search).get('mode') === 'client'
          ? await connectMesh(bootstrap, AbortSignal.timeout(30_000))
          : await startPagePeer(bootstrap)
      document.body.dataset.selfId = source.selfId
      document.body.dataset.source = source.kind
      return
    } catch (err) {
      status('error', `cannot join the mesh: ${errorText(err)} — retrying in ${RECONNECT_MS / 1000} s`)
      await new Promise((r) => setTimeout(r, RECONNECT_MS))
    }
  }
}

async function poll(mesh: MeshSource): Promise<void> {
  const signal = AbortSignal.timeout(POLL_TIMEOUT_MS)
  const [cluster, topics, groupIds] = await Promise.all([
    mesh.describeCluster(signal),
    mesh.describeTopics(signal),
    mesh.listGroups(signal),
  ])
  const groupErrors = new Map<string, string>()
  const groups = (
    await Promise.all(
      groupIds.slice(0, MAX_GROUPS).map((id) =>
        mesh.describeGroup(id, signal).catch((err: unknown) => {
          groupErrors.set(id, errorText(err))
          return undefined
        }),
      ),
    )
  ).filter((g): g is GroupDetail => g !== undefined)

  const now = Date.now()
  // Per partition, so a partition whose leader did not answer this time (high watermark '-1')
  // is left out of both samples instead of showing up as a drop and then a burst.
  const highWatermarks = new Map<string, number>()
  for (const t of topics) {
    for (const p of t.partitions) {
      if (p.highWatermark !== '-1') highWatermarks.set(`${t.name}\u0000${p.partition}`, Number(p.highWatermark))
    }
  }
  const current = { timeMs: now, totals: highWatermarks }
  const perTopic: Record<string, number> = {}
  for (const [key, rate] of Object.entries(rates(previousTotals, current))) {
    const topic = key.slice(0, key.indexOf('\u0000'))
    perTopic[topic] = (perTopic[topic] ?? 0) + rate
  }
  throughput.push(now, previousTotals === undefined ? {} : perTopic)
  previousTotals = current
  lag.push(
    now,
    Object.fromEntries(groups.map((g) => [g.groupId, g.offsets.reduce((s, o) => s + Math.max(0, Number(o.lag)), 0)])),
  )

  const context = { selfId: mesh.selfId, servedBy: bootstrap?.peerId ?? '', sourceKind: mesh.kind, links: mesh.links() }
  renderPeers(sections.get('peers')!, cluster, context)
  renderTopics(sections.get('topics')!, topics, {
    canObserve: mesh.kind === 'peer',
    observed: mesh.observed(),
    observe: (topic) => mesh.observe(topic),
  })
  renderGroups(sections.get('groups')!, groups, groupErrors)
  produce.setTopics(topics.map((t) => t.name))
  const width = main.clientWidth - 32
  throughputChart.update(throughput, width)
  lagChart.update(lag, width)
  document.body.dataset.polledAt = String(now)

  const alive = cluster.peers.filter((p) => p.status === 'alive').length
  // A peer tab answers from its own state even when cut off, so ask its connections instead.
  if (mesh.kind === 'peer' && mesh.links().size === 0) {
    status('offline', NO_LINKS)
    return
  }
  status(
    'online',
    `${mesh.kind === 'peer' ? 'peer of' : 'connected to'} the mesh through …${(bootstrap?.peerId ?? '').slice(-8)} · ${alive} peer${alive === 1 ? '' : 's'} alive · ${topics.length} topic${topics.length === 1 ? '' : 's'}`,
  )
}

/** What this tab holds itself (storage, replicas, outbox): shown whether or not the mesh answers. */
async function renderLocal(mesh: MeshSource): Promise<void> {
  storage = await readStorage().catch(() => storage)
  const [peerStorage, outbox] = await Promise.all([
    mesh.peerStorage().catch(() => undefined),
    mesh.outbox().catch(() => undefined),
  ])
  renderStorage(
    sections.get('storage')!,
    storage,
    { status: outbox, error: mesh.outboxError() },
    mesh.kind,
    peerStorage,
  )
}

async function run(): Promise<void> {
  renderStorage(
    sections.get('storage')!,
    await readStorage().catch(() => undefined),
    { status: undefined, error: undefined },
    'sdk',
    undefined,
  )
  await connect()
  for (;;) {
    await renderLocal(source!)
    if (!navigator.onLine) status('offline', 'offline: the browser has no network; showing the last data seen')
    else if (source!.kind === 'peer' && source!.links().size === 0) status('offline', NO_LINKS)
    else {
      try {
        await poll(source!)
      } catch (err) {
        const reason =
          err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
            ? `no answer from the mesh within ${POLL_TIMEOUT_MS / 1000} s`
            : errorText(err)
        status('offline', `lost the mesh: ${reason} — retrying every ${POLL_MS / 1000} s; showing the last data seen`)
      }
    }
    // Wait for the next poll, or less if the browser comes back online; the listener goes either way.
    await new Promise<void>((resolve) => {
      const wake = new AbortController()
      const done = (): void => {
        clearTimeout(timer)
        wake.abort()
        resolve()
      }
      const timer = setTimeout(done, POLL_MS)
      window.addEventListener('online', done, { signal: wake.signal })
    })
  }
}

window.addEventListener('offline', () =>
  status('offline', 'offline: the browser has no network; showing the last data seen'),
)
window.addEventListener('pagehide', () => {
  void source?.close()
})
void run()
