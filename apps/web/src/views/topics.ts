/**
 * Topics and partitions: leader, epoch, voters, observers, in-sync voters and the leader's log
 * start / high watermark / log end; under each partition, every other replica's log end and lag
 * as its leader sees it.
 */
import type { DescribedTopic } from '@tributary/client'
import { errorText, h, shortId, table } from '../dom.js'

export interface ReplicaControls {
  /** This tab is a peer and can hold replicas. */
  canObserve: boolean
  /** Topics this tab holds replicas of. */
  observed: string[]
  observe(topic: string): Promise<void>
}

export function renderTopics(root: HTMLElement, topics: DescribedTopic[] | undefined, controls: ReplicaControls): void {
  if (topics === undefined) {
    root.replaceChildren(h('p', { class: 'muted' }, 'waiting for the mesh…'))
    return
  }
  if (topics.length === 0) {
    root.replaceChildren(h('p', { class: 'muted', 'data-testid': 'no-topics' }, 'No topics yet: create one below.'))
    return
  }
  const ids = (list: string[]) =>
    list.length === 0 ? '—' : h('span', {}, ...list.flatMap((id, i) => [i ? ' ' : '', shortId(id)]))
  root.replaceChildren(
    ...topics.map((topic) =>
      h(
        'section',
        { class: 'topic', 'data-topic': topic.name },
        h(
          'h3',
          {},
          topic.name,
          replicaControl(topic.name, controls),
          h(
            'span',
            { class: 'muted' },
            ` · ${topic.partitions.length} partition${topic.partitions.length === 1 ? '' : 's'} · RF ${topic.replicationFactor}`,
          ),
        ),
        table(
          `partitions-${topic.name}`,
          [
            'partition',
            'replica',
            'leader',
            'epoch',
            'voters',
            'observers',
            'in-sync',
            'log start',
            'high watermark',
            'log end',
            'lag',
          ],
          topic.partitions.flatMap((p) => [
            {
              attrs: { 'data-partition': String(p.partition), 'data-replica': p.leader, class: 'leader-row' },
              cells: [
                String(p.partition),
                p.leader === '' ? 'no leader' : 'leader',
                shortId(p.leader),
                String(p.leaderEpoch),
                ids(p.voters),
                ids(p.observers),
                ids(p.inSyncVoters),
                offset(p.logStartOffset),
                offset(p.highWatermark),
                offset(p.logEndOffset),
                '0',
              ],
            },
            ...p.replicas.map((r) => ({
              attrs: { 'data-partition': String(p.partition), 'data-replica': r.peerId, class: 'replica-row' },
              cells: [
                '',
                r.voter ? 'voter' : 'observer',
                shortId(r.peerId),
                '',
                '',
                '',
                // Only voters count toward the in-sync set; an observer is never in it.
                r.voter ? (p.inSyncVoters.includes(r.peerId) ? 'in sync' : 'behind') : '—',
                '',
                '',
                offset(r.logEndOffset),
                offset(r.lag),
              ],
            })),
          ]),
        ),
      ),
    ),
  )
}

/** "Replicate in this tab" for a peer tab, or a note that it already does. */
function replicaControl(topic: string, controls: ReplicaControls): HTMLElement | string {
  if (!controls.canObserve) return ''
  if (controls.observed.includes(topic)) {
    return h('span', { class: 'badge', 'data-testid': `replicated-${topic}` }, 'replicated in this tab')
  }
  const button = h(
    'button',
    { type: 'button', class: 'inline', 'data-testid': `observe-${topic}` },
    'Replicate in this tab',
  )
  button.addEventListener('click', () => {
    button.disabled = true
    button.textContent = 'starting replicas…'
    controls.observe(topic).catch((err: unknown) => {
      button.textContent = `could not replicate: ${errorText(err)}`
    })
  })
  return button
}

function offset(value: string): string {
  return value === '-1' ? '?' : value
}
