/** Instrumentation: named events, listeners removable, payloads built only when someone listens. */
import { describe, expect, it } from 'vitest'
import { InvalidArgumentError } from '../src/errors.ts'
import { Instrumentation } from '../src/instrumentation.ts'

interface Events {
  'x.one': { n: number }
  'x.two': { s: string }
}

describe('client > instrumentation', () => {
  it('builds no payload while nobody listens', () => {
    const events = new Instrumentation<Events>(['x.one', 'x.two'])
    let built = 0
    events.emit('x.one', () => {
      built++
      return { n: 1 }
    })
    expect(built).toBe(0)
    const seen: number[] = []
    const off = events.on('x.one', (e) => seen.push(e.payload.n))
    events.emit('x.one', () => {
      built++
      return { n: 2 }
    })
    off()
    events.emit('x.one', () => {
      built++
      return { n: 3 }
    })
    expect(seen).toEqual([2])
    expect(built).toBe(1)
    expect(events.has('x.one')).toBe(false)
  })

  it('gives each event an id, its type and a timestamp; a throwing listener harms no other', () => {
    const errors: unknown[] = []
    const events = new Instrumentation<Events>(['x.one', 'x.two'], (err) => errors.push(err))
    const got: Array<{ id: number; type: string }> = []
    events.on('x.two', () => {
      throw new Error('listener bug')
    })
    events.on('x.two', (e) => got.push({ id: e.id, type: e.type }))
    events.emit('x.two', () => ({ s: 'a' }))
    events.emit('x.two', () => ({ s: 'b' }))
    expect(got).toEqual([
      { id: 0, type: 'x.two' },
      { id: 1, type: 'x.two' },
    ])
    expect(errors).toHaveLength(2)
  })

  it('refuses unknown event names and non-function listeners', () => {
    const events = new Instrumentation<Events>(['x.one', 'x.two'])
    expect(() => events.on('x.three' as never, () => {})).toThrow(InvalidArgumentError)
    expect(() => events.on('x.one', 'nope' as never)).toThrow(InvalidArgumentError)
  })
})
