/** The produce form (one record, acks=all, the reply's partition and offset) and a create-topic form. */
import { errorText, h } from '../dom.js'
import type { MeshSource } from '../mesh-source.js'

const TIMEOUT_MS = 20_000

export function mountProduce(
  root: HTMLElement,
  source: () => MeshSource | undefined,
): { setTopics(names: string[]): void } {
  const topics = h('datalist', { id: 'topic-names' })
  const topic = h('input', {
    name: 'topic',
    list: 'topic-names',
    required: true,
    maxlength: 249,
    'data-testid': 'produce-topic',
  })
  const key = h('input', { name: 'key', maxlength: 1024, placeholder: '(none)', 'data-testid': 'produce-key' })
  const value = h('textarea', { name: 'value', rows: 3, maxlength: 1_000_000, 'data-testid': 'produce-value' })
  const send = h('button', { type: 'submit', 'data-testid': 'produce-send' }, 'Send (acks=all)')
  const queue = h(
    'button',
    { type: 'button', 'data-testid': 'produce-queue', title: 'kept in this tab until the mesh takes it' },
    'Queue (delivered when online)',
  )
  const result = h('p', { 'data-testid': 'produce-result', 'aria-live': 'polite' })
  const form = h(
    'form',
    { 'data-testid': 'produce-form' },
    label('topic', topic),
    label('key', key),
    label('value', value),
    send,
    queue,
  )
  queue.addEventListener('click', () => {
    const mesh = source()
    if (mesh === undefined) return show(result, 'error', 'not connected to the mesh yet')
    if (!form.reportValidity()) return
    mesh.enqueue({ topic: topic.value.trim(), key: key.value === '' ? null : key.value, value: value.value }).then(
      (r) =>
        show(
          result,
          'queued',
          `queued as outbox record #${r.recordId}: delivered to ${topic.value.trim()} once the mesh takes it`,
        ),
      (err: unknown) => show(result, 'error', `not queued: ${errorText(err)}`),
    )
  })
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const mesh = source()
    if (mesh === undefined) return show(result, 'error', 'not connected to the mesh yet')
    send.disabled = true
    show(result, 'pending', 'sending…')
    mesh
      .produce(
        { topic: topic.value.trim(), key: key.value === '' ? null : key.value, value: value.value },
        AbortSignal.timeout(TIMEOUT_MS),
      )
      .then(
        (r) => show(result, 'ok', `sent to ${topic.value.trim()} partition ${r.partition} at offset ${r.offset}`),
        (err: unknown) => show(result, 'error', `not sent: ${errorText(err)}`),
      )
      .finally(() => {
        send.disabled = false
      })
  })

  const newName = h('input', {
    name: 'name',
    required: true,
    maxlength: 249,
    pattern: '[a-zA-Z0-9._-]+',
    'data-testid': 'create-topic-name',
  })
  const partitions = h('input', { name: 'partitions', type: 'number', min: 1, max: 1000, value: 3, required: true })
  const rf = h('input', { name: 'rf', type: 'number', min: 1, max: 16, value: 1, required: true })
  const created = h('p', { 'data-testid': 'create-topic-result', 'aria-live': 'polite' })
  const createForm = h(
    'form',
    { 'data-testid': 'create-topic-form' },
    label('new topic', newName),
    label('partitions', partitions),
    label('replication factor', rf),
    h('button', { type: 'submit' }, 'Create topic'),
  )
  createForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const mesh = source()
    if (mesh === undefined) return show(created, 'error', 'not connected to the mesh yet')
    show(created, 'pending', 'creating…')
    mesh
      .createTopic(newName.value.trim(), Number(partitions.value), Number(rf.value), AbortSignal.timeout(TIMEOUT_MS))
      .then(
        () => show(created, 'ok', `created ${newName.value.trim()}`),
        (err: unknown) => show(created, 'error', `not created: ${errorText(err)}`),
      )
  })

  root.replaceChildren(
    h('h3', {}, 'Produce a record'),
    form,
    result,
    topics,
    h('h3', {}, 'Create a topic'),
    createForm,
    created,
  )
  return {
    setTopics(names) {
      topics.replaceChildren(...names.map((n) => h('option', { value: n })))
    },
  }
}

function label(text: string, input: HTMLElement): HTMLLabelElement {
  return h('label', {}, h('span', {}, text), input)
}

function show(el: HTMLElement, state: 'ok' | 'error' | 'pending' | 'queued', message: string): void {
  el.dataset.state = state
  el.textContent = message
}
