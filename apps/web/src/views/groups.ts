/** Consumer groups: state and generation, members and their assignments, committed offsets and lag. */
import { h, table } from '../dom.js'
import type { GroupDetail } from '../mesh-source.js'

export function renderGroups(root: HTMLElement, groups: GroupDetail[] | undefined, errors: Map<string, string>): void {
  if (groups === undefined) {
    root.replaceChildren(h('p', { class: 'muted' }, 'waiting for the mesh…'))
    return
  }
  if (groups.length === 0 && errors.size === 0) {
    root.replaceChildren(h('p', { class: 'muted', 'data-testid': 'no-groups' }, 'No consumer groups.'))
    return
  }
  root.replaceChildren(
    ...groups.map((g) => {
      const totalLag = g.offsets.reduce((sum, o) => sum + Math.max(0, Number(o.lag)), 0)
      return h(
        'section',
        { class: 'group', 'data-group': g.groupId },
        h(
          'h3',
          {},
          g.groupId,
          h(
            'span',
            { class: 'muted' },
            ` · ${g.state} · generation ${g.generation} · ${g.protocol || 'no protocol'} · lag ${totalLag}`,
          ),
        ),
        g.members.length === 0
          ? h(
              'p',
              { class: 'muted', 'data-testid': `members-${g.groupId}` },
              'No members: offsets stay committed for the next one.',
            )
          : table(
              `members-${g.groupId}`,
              ['member', 'instance', 'client', 'assignment'],
              g.members.map((m) => ({
                attrs: { 'data-member': m.memberId },
                cells: [
                  m.memberId,
                  m.groupInstanceId ?? '—',
                  m.clientId,
                  m.assignment.map((a) => `${a.topic}[${a.partitions.join(',')}]`).join(' ') || 'nothing',
                ],
              })),
            ),
        table(
          `offsets-${g.groupId}`,
          ['topic', 'partition', 'committed', 'log end', 'lag'],
          g.offsets.map((o) => ({
            attrs: { 'data-topic': o.topic, 'data-partition': String(o.partition) },
            cells: [o.topic, String(o.partition), o.offset === '-1' ? 'none' : o.offset, o.logEndOffset, o.lag],
          })),
        ),
      )
    }),
    ...[...errors].map(([groupId, message]) =>
      h('p', { class: 'error', 'data-group-error': groupId }, `${groupId}: ${message}`),
    ),
  )
}
