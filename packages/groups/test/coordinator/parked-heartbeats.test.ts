import { ErrorCode } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { Driver, only, SESSION } from './driver.ts'

const WAIT = 400

function stableGroup(): Driver {
  const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 100 })
  d.join('a')
  d.join('b')
  d.advance(100)
  d.sync('a', 1)
  d.sync('b', 1)
  expect(d.describe()?.state).toBe('Stable')
  return d
}

const park = (d: Driver, sender: string): ReturnType<Driver['heartbeat']> =>
  d.heartbeat(sender, 1, undefined, `c-${sender}`, WAIT)

describe('coordinator > parked heartbeats', () => {
  it('holds a heartbeat and answers it at once when a rebalance starts', () => {
    const d = stableGroup()
    expect(park(d, 'a')).toEqual([])
    expect(park(d, 'b')).toEqual([])
    // A third member's join starts a rebalance: both parked heartbeats are answered in that call.
    const answers = d.join('c')
    const rebalancing = answers.filter((r) => r.kind === 'heartbeat')
    expect(rebalancing.map((r) => r.recipient).sort()).toEqual(['a', 'b'])
    for (const r of rebalancing)
      expect(r).toMatchObject({ errorCode: ErrorCode.REBALANCE_IN_PROGRESS, sessionRenewed: true })
  })

  it('answers a parked heartbeat plainly when its wait runs out, and renews the session on arrival', () => {
    const d = stableGroup()
    d.advance(SESSION / 2)
    park(d, 'a')
    expect(d.coordinator.nextDeadline()).toBe(d.now + WAIT)
    const answers = d.advance(WAIT).filter((r) => r.kind === 'heartbeat')
    expect(only(answers)).toMatchObject({ recipient: 'a', errorCode: 0, sessionRenewed: true })
    // b never heartbeated: its session ends; a's runs from its parked heartbeat's arrival.
    d.advance(SESSION / 2 - WAIT)
    expect(d.events.some((e) => e.type === 'member-removed' && e.memberId === 'c-b')).toBe(true)
    expect(d.events.some((e) => e.type === 'member-removed' && e.memberId === 'c-a')).toBe(false)
  })

  it('answers the previous parked heartbeat when the member sends the next one', () => {
    const d = stableGroup()
    park(d, 'a')
    const first = d.nextId('a') - 1
    d.advance(WAIT / 2)
    expect(only(park(d, 'a'))).toMatchObject({ recipient: 'a', requestId: first, errorCode: 0 })
    // The new one is parked in its turn, due a full wait after it arrived.
    expect(d.coordinator.nextDeadline()).toBeLessThanOrEqual(d.now + WAIT)
  })

  it('answers a removed member’s parked heartbeat with UNKNOWN_MEMBER_ID', () => {
    const d = stableGroup()
    park(d, 'b')
    const answers = d.leave('b').filter((r) => r.kind === 'heartbeat')
    expect(only(answers)).toMatchObject({ recipient: 'b', errorCode: ErrorCode.UNKNOWN_MEMBER_ID })
  })

  it('does not park a heartbeat of a rebalancing group or of another generation', () => {
    const d = stableGroup()
    expect(only(d.heartbeat('a', 0, undefined, 'c-a', WAIT))).toMatchObject({
      errorCode: ErrorCode.ILLEGAL_GENERATION,
    })
    d.join('c')
    expect(only(park(d, 'a'))).toMatchObject({ errorCode: ErrorCode.REBALANCE_IN_PROGRESS })
  })
})
