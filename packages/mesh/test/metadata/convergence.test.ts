import { describe, expect, it } from 'vitest'
import { compareEntries, type Entry, MetadataStore } from '../../src/metadata/index.js'
import { divergences, runSimulation, type SimulationStats } from './simulation.js'

const SEEDS = 200

/** Accepts any entry that differs from the current one: last delivered wins, which depends on delivery order. */
class LastDeliveredWinsStore extends MetadataStore {
  protected override wins(incoming: Entry, current: Entry): boolean {
    return compareEntries(incoming, current) !== 0
  }
}

describe('mesh > metadata > convergence (seeded simulation)', () => {
  it(`replicas hold identical maps and topic views after delivery quiesces, for ${SEEDS} seeds`, () => {
    const totals: SimulationStats = {
      replicas: 0,
      operations: 0,
      messages: 0,
      duplicates: 0,
      snapshots: 0,
      concurrentCreates: 0,
      replacedEvents: 0,
      clockJumpsBack: 0,
    }
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { replicas, stats } = runSimulation({ seed })
      const problems = divergences(replicas)
      if (problems.length > 0) expect.fail(`seed ${seed} diverged:\n${problems.join('\n')}`)
      for (const key of Object.keys(totals) as (keyof SimulationStats)[]) totals[key] += stats[key]
    }
    // The runs exercised what the property is about: duplicates, reordering through snapshots,
    // concurrent creation of one name, losers told their topic was replaced, clocks going back.
    expect(totals.duplicates).toBeGreaterThan(SEEDS)
    expect(totals.snapshots).toBeGreaterThan(SEEDS)
    expect(totals.concurrentCreates).toBeGreaterThan(SEEDS / 4)
    expect(totals.replacedEvents).toBeGreaterThan(SEEDS / 4)
    expect(totals.clockJumpsBack).toBeGreaterThan(SEEDS / 4)
  })

  it('is deterministic: one seed replays to the same state', () => {
    const a = runSimulation({ seed: 42 })
    const b = runSimulation({ seed: 42 })
    expect(b.stats).toEqual(a.stats)
    expect(b.replicas[0]?.store.snapshot()).toEqual(a.replicas[0]?.store.snapshot())
  })

  it('has teeth: a merge that lets the last delivered entry win diverges for some seeds', () => {
    const diverged: number[] = []
    for (let seed = 1; seed <= 40; seed++) {
      const { replicas } = runSimulation({ seed, createStore: (options) => new LastDeliveredWinsStore(options) })
      if (divergences(replicas).length > 0) diverged.push(seed)
    }
    expect(diverged.length).toBeGreaterThan(0)
  })
})
