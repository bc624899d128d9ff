/**
 * The Raft layer under deterministic simulation (see simulation.ts). `RAFT_SEEDS=2000` (and
 * `RAFT_FIRST_SEED`) run a longer soak locally; a failing seed replays exactly, and
 * `RAFT_SIM_TRACE=1` prints the cluster every 400 ms of simulated time.
 */
import { describe, expect, it } from 'vitest'
import type { QuorumRules } from '../../src/raft/types.js'
import { runSimulation, type SimulationOptions } from './simulation.js'

const SEEDS = Number(process.env.RAFT_SEEDS ?? 200)
const FIRST_SEED = Number(process.env.RAFT_FIRST_SEED ?? 1)

/** Seeds alternate 3 and 5 voters; every third adds an observer; every fourth runs twice as long. */
function scenario(seed: number): SimulationOptions {
  return {
    seed,
    voters: seed % 2 === 0 ? 5 : 3,
    observers: seed % 3 === 0 ? 1 : 0,
    chaosMs: seed % 4 === 0 ? 4000 : 2000,
  }
}

/** What the safety checks report (liveness failures and a replica's own error logs do not count). */
const SAFETY = /two leaders|committed batch|committed records disappeared|acknowledged record|does not line up/

/** The first seed whose run the safety checks themselves flag. */
async function firstCaught(rules: Partial<QuorumRules>, maxSeeds: number, chaosMs: number) {
  for (let seed = 1; seed <= maxSeeds; seed++) {
    const result = await runSimulation({ ...scenario(seed), chaosMs, rules })
    const caught = result.violations.filter((v) => SAFETY.test(v))
    if (caught.length > 0) return { seed, violation: caught[0] }
  }
  return undefined
}

describe('raft > simulation', () => {
  it(`keeps every invariant over ${SEEDS} seeds of crashes, partitions and a lossy network`, async () => {
    const started = Date.now()
    const failures: string[] = []
    const totals = { acked: 0, epochs: 0, crashes: 0, committed: 0 }
    const paths: Record<string, number> = {}
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
      const { violations, stats } = await runSimulation(scenario(seed))
      totals.acked += stats.acked
      totals.epochs += stats.epochs
      totals.crashes += stats.crashes
      totals.committed += stats.committed
      for (const [message, n] of Object.entries(stats.logs)) paths[message] = (paths[message] ?? 0) + n
      if (violations.length > 0) failures.push(`seed ${seed}: ${violations.join('; ')}`)
    }
    console.log(`raft simulation: ${SEEDS} seeds from ${FIRST_SEED} in ${Date.now() - started} ms`, totals, paths)
    expect(failures).toEqual([])
    // The runs exercised the paths that matter, not just the happy one.
    for (const path of [
      'truncating a diverged log',
      'no majority fetched recently; resigning',
      'leader resigned; standing sooner',
    ]) {
      expect(paths[path] ?? 0).toBeGreaterThan(0)
    }
  }, 300_000)

  it('replays a seed exactly', async () => {
    const a = await runSimulation(scenario(7))
    const b = await runSimulation(scenario(7))
    expect(b).toEqual(a)
    expect(a.stats.acked).toBeGreaterThan(0)
  })

  describe('finds planted bugs', () => {
    it('a high watermark that ignores the majority (the leader commits what only it holds)', async () => {
      const found = await firstCaught({ majorityEndOffset: (ends) => Math.max(...ends) }, 20, 2000)
      console.log('planted HW bug caught:', found)
      expect(found).toBeDefined()
    })

    it('votes that ignore the up-to-date-log rule', async () => {
      const found = await firstCaught({ isLogUpToDate: () => true }, 60, 2000)
      console.log('planted vote bug caught:', found)
      expect(found).toBeDefined()
    })

    it("a leader committing an older epoch's records by counting replicas (Raft's Figure 8)", async () => {
      const found = await firstCaught({ commitsOwnEpoch: () => true }, 150, 6000)
      console.log('planted Figure 8 bug caught:', found)
      expect(found).toBeDefined()
    })
  })
})
