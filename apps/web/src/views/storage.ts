/**
 * The page's own footprint: the browser's storage estimate for this origin (IndexedDB replicas
 * and the outbox live there), this tab's replicas, and its outbox: records waiting to be
 * delivered, whether the mesh is reachable, deliveries since the page loaded.
 */
import { h } from '../dom.js'
import type { OutboxStatus, PeerStorageStatus } from '../mesh-source.js'

export interface StorageInfo {
  usage: number | undefined
  quota: number | undefined
  persisted: boolean | undefined
}

export async function readStorage(): Promise<StorageInfo> {
  const storage = navigator.storage as StorageManager | undefined
  if (storage?.estimate === undefined) return { usage: undefined, quota: undefined, persisted: undefined }
  const [estimate, persisted] = await Promise.all([storage.estimate(), storage.persisted?.().catch(() => undefined)])
  return { usage: estimate.usage, quota: estimate.quota, persisted }
}

export function renderStorage(
  root: HTMLElement,
  storage: StorageInfo | undefined,
  outbox: { status: OutboxStatus | undefined; error: string | undefined },
  sourceKind: 'sdk' | 'peer',
  peer: PeerStorageStatus | undefined,
): void {
  const percent =
    storage?.usage !== undefined && storage.quota !== undefined && storage.quota > 0
      ? (100 * storage.usage) / storage.quota
      : undefined
  root.replaceChildren(
    h(
      'dl',
      { 'data-testid': 'storage' },
      h('dt', {}, 'storage used'),
      h(
        'dd',
        { 'data-testid': 'storage-usage', 'data-bytes': storage?.usage },
        storage?.usage === undefined ? 'unknown' : bytes(storage.usage),
      ),
      h('dt', {}, 'quota'),
      h(
        'dd',
        { 'data-testid': 'storage-quota', 'data-bytes': storage?.quota },
        storage?.quota === undefined ? 'unknown' : bytes(storage.quota),
      ),
      h('dt', {}, 'share of quota'),
      h(
        'dd',
        {},
        percent === undefined ? 'unknown' : h('meter', { min: 0, max: 100, value: percent.toFixed(2) }),
        percent === undefined ? '' : ` ${percent.toFixed(2)} %`,
      ),
      h('dt', {}, 'persistent'),
      h(
        'dd',
        {},
        storage?.persisted === undefined ? 'unknown' : storage.persisted ? 'yes' : 'no (the browser may evict it)',
      ),
      ...outboxRows(outbox.status, outbox.error),
      h('dt', {}, 'this tab'),
      h(
        'dd',
        {},
        sourceKind === 'peer' ? 'a peer: replicas are kept in IndexedDB' : 'a light client: it keeps no replicas',
      ),
      ...(peer === undefined
        ? []
        : [
            h('dt', {}, 'replicas here'),
            h('dd', { 'data-testid': 'peer-replicas' }, String(peer.replicas)),
            h('dt', {}, 'replica bytes'),
            h(
              'dd',
              { 'data-testid': 'peer-log-bytes', 'data-bytes': peer.logBytes },
              bytes(peer.logBytes),
              peer.budgetBytes === undefined
                ? ''
                : ` of a ${bytes(peer.budgetBytes)} budget (retention keeps them under it)`,
            ),
            h('dt', {}, 'last storage error'),
            h('dd', { class: peer.lastError === undefined ? '' : 'error' }, peer.lastError ?? 'none'),
          ]),
    ),
  )
}

function outboxRows(status: OutboxStatus | undefined, error: string | undefined): HTMLElement[] {
  if (status === undefined) {
    return [
      h('dt', {}, 'outbox'),
      h(
        'dd',
        { 'data-testid': 'outbox', class: error === undefined ? '' : 'error' },
        error === undefined
          ? 'opening…'
          : `no outbox (${error}): sends go straight to the mesh and fail while it is unreachable`,
      ),
    ]
  }
  return [
    h('dt', {}, 'outbox'),
    h(
      'dd',
      { 'data-testid': 'outbox', 'data-pending': status.pending },
      `${status.pending} record${status.pending === 1 ? '' : 's'} waiting to be delivered (outbox '${status.name}')`,
    ),
    h('dt', {}, 'delivery'),
    h(
      'dd',
      { 'data-testid': 'outbox-online', 'data-online': String(status.online) },
      status.online === true
        ? 'the mesh is reachable'
        : status.online === false
          ? 'the mesh is unreachable: retrying with backoff, nothing is lost'
          : 'not tried yet',
    ),
    h('dt', {}, 'delivered since load'),
    h('dd', { 'data-testid': 'outbox-delivered' }, String(status.delivered)),
    h('dt', {}, 'last delivery problem'),
    h('dd', { class: status.lastError === undefined ? '' : 'error' }, status.lastError ?? 'none'),
  ]
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let value = n / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}
