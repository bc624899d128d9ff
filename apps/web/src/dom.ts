/** A tiny element builder: the app is plain DOM, and text always goes in as text (never HTML). */
type Child = Node | string | number | null | undefined | false

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue
    el.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    el.append(typeof child === 'object' ? child : String(child))
  }
  return el
}

/** A table with a header row; each row is a list of cells (strings or nodes). */
export function table(
  testId: string,
  headers: string[],
  rows: Array<{ cells: Child[]; attrs?: Record<string, string> }>,
) {
  return h(
    'table',
    { 'data-testid': testId },
    h('thead', {}, h('tr', {}, ...headers.map((name) => h('th', {}, name)))),
    h('tbody', {}, ...rows.map((row) => h('tr', row.attrs ?? {}, ...row.cells.map((cell) => h('td', {}, cell))))),
  )
}

/** Peer ids are long; show the tail that libp2p tools show, keep the whole id in the title. */
export function shortId(peerId: string): HTMLElement {
  if (peerId === '') return h('span', { class: 'muted' }, 'none')
  return h('code', { title: peerId, 'data-peer-id': peerId }, `…${peerId.slice(-8)}`)
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.name !== 'Error' ? `${err.name}: ${err.message}` : err.message
  return String(err)
}
