/**
 * Live tail of one topic: starts at every partition's log end and shows each record as it
 * arrives, newest first, keeping the last MAX_ROWS.
 */
import { errorText, h } from '../dom.js'
import type { MeshSource, TailHandle, TailRecord } from '../mesh-source.js'

const MAX_ROWS = 200

export function mountTail(root: HTMLElement, source: () => MeshSource | undefined): { stop(): Promise<void> } {
  const topic = h('input', {
    name: 'topic',
    list: 'topic-names',
    required: true,
    maxlength: 249,
    'data-testid': 'tail-topic',
  })
  const start = h('button', { type: 'submit', 'data-testid': 'tail-start' }, 'Tail')
  const state = h('p', { 'data-testid': 'tail-state', 'data-state': 'idle' }, 'Pick a topic to follow.')
  const rows = h('tbody', {})
  const form = h('form', { 'data-testid': 'tail-form' }, h('label', {}, h('span', {}, 'topic'), topic), start)
  let current: { handle: TailHandle | undefined; controller: AbortController } | undefined

  const stop = async (): Promise<void> => {
    const running = current
    current = undefined
    running?.controller.abort()
    await running?.handle?.stop().catch(() => {})
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const mesh = source()
    const name = topic.value.trim()
    if (mesh === undefined || name === '') return
    void (async () => {
      await stop()
      rows.replaceChildren()
      const controller = new AbortController()
      const mine: { handle: TailHandle | undefined; controller: AbortController } = { handle: undefined, controller }
      current = mine
      setState(state, 'starting', `finding the end of ${name}…`)
      try {
        const timeout = AbortSignal.any([controller.signal, AbortSignal.timeout(15_000)])
        mine.handle = await mesh.tail(name, (record) => addRow(rows, record), timeout)
        if (current !== mine) return void (await mine.handle.stop())
        const from = mine.handle.startOffsets.map((o) => `${o.partition}:${o.offset}`).join(' ')
        setState(state, 'live', `live: ${name}, from offsets ${from} (partition:offset)`)
        state.dataset.topic = name
      } catch (err) {
        if (current === mine) setState(state, 'error', `cannot tail ${name}: ${errorText(err)}`)
      }
    })()
  })

  root.replaceChildren(
    form,
    state,
    h(
      'table',
      { 'data-testid': 'tail-table' },
      h('thead', {}, h('tr', {}, ...['partition', 'offset', 'time', 'key', 'value'].map((c) => h('th', {}, c)))),
      rows,
    ),
  )
  return { stop }
}

function addRow(rows: HTMLElement, r: TailRecord): void {
  const time = new Date(Number(r.timestamp))
  rows.prepend(
    h(
      'tr',
      { 'data-partition': String(r.partition), 'data-offset': r.offset },
      h('td', {}, String(r.partition)),
      h('td', {}, r.offset),
      h('td', {}, Number.isNaN(time.getTime()) ? r.timestamp : time.toLocaleTimeString()),
      h('td', {}, r.key ?? h('span', { class: 'muted' }, 'null')),
      h('td', { class: 'value' }, r.value.length > 500 ? `${r.value.slice(0, 500)}…` : r.value),
    ),
  )
  while (rows.childElementCount > MAX_ROWS) rows.lastElementChild?.remove()
}

function setState(el: HTMLElement, state: string, message: string): void {
  el.dataset.state = state
  el.textContent = message
}
