/** Peers in the mesh: Node or browser, transports, voter or observer, direct or relayed, liveness. */
import type { ClusterDescription } from '@tributary/client'
import { h, shortId, table } from '../dom.js'
import { describeLink, describeMember } from '../peer-kind.js'

export function renderPeers(
  root: HTMLElement,
  cluster: ClusterDescription | undefined,
  context: { selfId: string; servedBy: string; sourceKind: 'sdk' | 'peer'; links: Map<string, string[]> },
): void {
  if (cluster === undefined) {
    root.replaceChildren(h('p', { class: 'muted' }, 'waiting for the mesh…'))
    return
  }
  const rows = cluster.peers.map(describeMember).sort((a, b) => a.peerId.localeCompare(b.peerId))
  const notes = (peerId: string): string =>
    [
      peerId === context.selfId ? 'this tab' : '',
      peerId === context.servedBy ? 'served this page' : '',
      peerId === cluster.peerId && peerId !== context.selfId ? 'answered' : '',
    ]
      .filter(Boolean)
      .join(', ')
  root.replaceChildren(
    h(
      'p',
      { 'data-testid': 'self' },
      context.sourceKind === 'peer' ? 'This tab is a peer of the mesh: ' : 'This tab is a light client of the mesh: ',
      shortId(context.selfId),
      ` · ${rows.length} peer${rows.length === 1 ? '' : 's'} known`,
    ),
    table(
      'peers-table',
      ['peer', 'kind', 'transport', 'role', 'connection', 'link from this tab', 'status', 'version', ''],
      rows.map((p) => ({
        attrs: { 'data-peer': p.peerId },
        cells: [
          shortId(p.peerId),
          p.kind,
          p.transports.join(', ') || '—',
          p.role,
          p.connection,
          p.peerId === context.selfId
            ? '—'
            : context.sourceKind === 'peer'
              ? describeLink(context.links.get(p.peerId) ?? [])
              : 'through the SDK',
          p.status,
          p.version,
          notes(p.peerId),
        ],
      })),
    ),
  )
}
