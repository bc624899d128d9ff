/**
 * The scenario test's ledger judges at-least-once correctly: a record read again after a clean
 * hand-over is flagged; after a crash or a lost session only the records past the member's last
 * commit may repeat; a zombie's reads may interleave with its successor's; unread records and
 * two owners at once are found.
 */
import { describe, expect, it } from 'vitest'
import { Ledger } from './scenario-ledger.ts'

/** Member `name` reads `offsets` of partition 0. */
function read(ledger: Ledger, name: string, offsets: number[]): void {
  const member = ledger.members.get(name)!
  for (const o of offsets) member.processed(0, o, 'k', String(o))
}

describe('groups scenario > ledger', () => {
  it('flags a record read again after a clean revoke', () => {
    const ledger = new Ledger()
    const a = ledger.member('a')
    const b = ledger.member('b')
    a.assigned([0])
    read(ledger, 'a', [0, 1, 2])
    a.committedOffsets([[0, 3]])
    a.revoked([0])
    b.assigned([0])
    read(ledger, 'b', [2, 3])
    const { unexplained } = ledger.repeats()
    expect(unexplained.map((r) => `${r.member}@${r.offset}`)).toEqual(['b@2'])
  })

  it('allows a crashed member’s records after its last commit to repeat, and only those', () => {
    const ledger = new Ledger()
    const k = ledger.member('k')
    const c = ledger.member('c')
    k.assigned([0])
    read(ledger, 'k', [0, 1, 2, 3])
    k.committedOffsets([[0, 2]])
    k.crashed()
    c.assigned([0])
    read(ledger, 'c', [2, 3, 4])
    expect(ledger.repeats().unexplained).toEqual([])
    expect(ledger.repeats().explained.map((e) => [e.repeat.offset, e.by.kind])).toEqual([
      [2, 'crash'],
      [3, 'crash'],
    ])
    // A successor that started before the commit (a commit that did not land) is caught.
    read(ledger, 'c', [1])
    expect(ledger.repeats().unexplained.map((r) => r.offset)).toEqual([1])
  })

  it('allows a revocation’s repeats only while the coordinator is being replaced', () => {
    const ledger = new Ledger()
    const a = ledger.member('a')
    const b = ledger.member('b')
    a.assigned([0])
    read(ledger, 'a', [0, 1])
    a.committedOffsets([[0, 1]])
    ledger.phase = 'failover'
    a.revoked([0]) // its commit of 2 failed: the coordinator was gone
    b.assigned([0])
    read(ledger, 'b', [1, 2])
    expect(ledger.repeats().unexplained).toEqual([])
  })

  it('lets a zombie and its successor read its uncommitted records in either order', () => {
    const ledger = new Ledger()
    const z = ledger.member('z')
    const b = ledger.member('b')
    z.assigned([0])
    read(ledger, 'z', [0, 1])
    z.committedOffsets([[0, 1]])
    b.assigned([0]) // z's session expired; z does not know yet
    ledger.sample()
    read(ledger, 'b', [1, 2])
    read(ledger, 'z', [2])
    z.lost([0])
    expect(ledger.repeats().unexplained).toEqual([])
    expect(ledger.overlaps.map((o) => o.members)).toEqual([['z', 'b']])
    expect(ledger.unexplainedOverlaps()).toEqual([])
  })

  it('finds two owners at once and records nobody read', () => {
    const ledger = new Ledger()
    ledger.member('a').assigned([0])
    ledger.member('b').assigned([0])
    ledger.sample()
    expect(ledger.unexplainedOverlaps().map((o) => o.members)).toEqual([['a', 'b']])
    read(ledger, 'a', [0, 2])
    expect(ledger.skipped(new Map([[0, [0, 1, 2]]]))).toEqual(new Map([[0, [1]]]))
  })
})
