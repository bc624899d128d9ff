import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  SINGLE_THREADED_SCAVENGE_MAX_CORES,
  STREAMING_HEAP_GROWING_PERCENT,
  tuneGcForStreaming,
} from '../../src/node/gc-tuning.js'

const CHILD = fileURLToPath(new URL('./gc-tuning-child.ts', import.meta.url))
const SCAVENGE_CHILD = fileURLToPath(new URL('./gc-scavenge-child.ts', import.meta.url))
const CHILD_TIMEOUT_MS = 60_000

/** Runs a child with node flags and its arguments; returns its stdout and stderr once it exits 0. */
async function runChild(nodeArgs: string[], script: string, arg: string): Promise<string> {
  const args = [...nodeArgs, '--conditions=source', '--import', 'tsx', script, arg]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString()
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS)
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  clearTimeout(timer)
  expect(code, out.slice(-2000)).toBe(0)
  return out
}

/** The child's V8 trace: live MB after its explicit major GC, and the old-generation limit when marking next starts. */
async function heapLimitAfterGc(percent: number): Promise<{ liveMb: number; limitMb: number }> {
  const nodeArgs = ['--expose-gc', '--trace-gc', '--trace-incremental-marking']
  const out = await runChild(nodeArgs, CHILD, String(percent))
  const lines = out.split('\n')
  const marker = lines.indexOf('tributary-gc-marker')
  expect(marker, 'marker line').toBeGreaterThan(0)
  // The explicit gc() of the main isolate (its reason is 'testing'): "Mark-Compact A (B) -> L (C) MB".
  const mc = lines.slice(0, marker).findLast((l) => l.includes('Mark-Compact') && l.includes('testing'))
  const isolate = mc?.match(/^\[\d+:(0x[0-9a-f]+)\]/)?.[1]
  const live = mc?.match(/-> ([\d.]+) \(/)?.[1]
  expect(isolate !== undefined && live !== undefined, `no explicit major GC in:\n${out.slice(-2000)}`).toBe(true)
  const start = lines
    .slice(marker)
    .find((l) => l.includes(isolate!) && l.includes('[IncrementalMarking] Start') && l.includes('size/limit/slack'))
  const limit = start?.match(/v8: \d+MB \/ (\d+)MB/)?.[1]
  expect(limit, `marking never started after the marker:\n${out.slice(-2000)}`).toBeDefined()
  return { liveMb: Number(live), limitMb: Number(limit) }
}

describe('mesh > node > GC tuning for streaming processes', () => {
  it('rejects a growing percent outside 1…1000 or not an integer', () => {
    for (const heapGrowingPercent of [0, -5, 1001, 2.5, Number.NaN]) {
      expect(() => tuneGcForStreaming({ heapGrowingPercent, execArgv: [] })).toThrow(RangeError)
    }
  })

  it('keeps a heap growing percent given on node’s command line, in any spelling', () => {
    for (const execArgv of [
      ['--heap-growing-percent=50'],
      ['--heap_growing_percent=50'],
      ['--inspect', '--heap-growing-percent', '50'],
    ]) {
      expect(tuneGcForStreaming({ execArgv, singleThreadedScavenge: false })).toEqual({
        heapGrowingPercent: undefined,
        singleThreadedScavenge: false,
      })
    }
  })

  it('applies the streaming percent, or the one asked for', () => {
    expect(tuneGcForStreaming({ execArgv: ['--max-old-space-size=4096'], singleThreadedScavenge: false })).toEqual({
      heapGrowingPercent: STREAMING_HEAP_GROWING_PERCENT,
      singleThreadedScavenge: false,
    })
    expect(tuneGcForStreaming({ heapGrowingPercent: 200, execArgv: [], singleThreadedScavenge: false })).toEqual({
      heapGrowingPercent: 200,
      singleThreadedScavenge: false,
    })
  })

  it('makes scavenges single-threaded when asked, and by default on a machine with at most two cores', () => {
    expect(tuneGcForStreaming({ execArgv: [], singleThreadedScavenge: true }).singleThreadedScavenge).toBe(true)
    expect(tuneGcForStreaming({ execArgv: [] }).singleThreadedScavenge).toBe(
      availableParallelism() <= SINGLE_THREADED_SCAVENGE_MAX_CORES,
    )
  })

  it('keeps a parallel-scavenge flag given on node’s command line, in any spelling', () => {
    for (const execArgv of [
      ['--parallel-scavenge'],
      ['--no-parallel-scavenge'],
      ['--no_parallel_scavenge'],
      ['--noparallel-scavenge'],
      ['--parallel_scavenge=false'],
    ]) {
      expect(tuneGcForStreaming({ execArgv, singleThreadedScavenge: true })).toEqual({
        heapGrowingPercent: STREAMING_HEAP_GROWING_PERCENT,
        singleThreadedScavenge: false,
      })
    }
    // A flag that only starts with the same letters is not it.
    expect(
      tuneGcForStreaming({ execArgv: ['--parallel-scavenge-task-trace'], singleThreadedScavenge: true })
        .singleThreadedScavenge,
    ).toBe(true)
  })

  it(
    'single-threaded scavenges take effect at run time: no helper thread works in any of them',
    async () => {
      /** `background.scavenge.parallel` (ms a helper thread copied) of each scavenge after the child's marker. */
      const helperMs = async (mode: 'single' | 'default'): Promise<number[]> => {
        const out = await runChild(['--trace-gc-nvp'], SCAVENGE_CHILD, mode)
        // By time, not by line order: trace lines of other isolates (tsx's loader) may land after the marker.
        const markerMs = Number(out.match(/^tributary-gc-marker ([\d.]+)$/m)?.[1])
        expect(markerMs, 'marker line').toBeGreaterThan(0)
        const after: number[] = []
        for (const line of out.split('\n')) {
          const scavenge = line.match(/ (\d+) ms: pause=.* gc=s .* background\.scavenge\.parallel=([\d.]+)/)
          if (scavenge !== null && Number(scavenge[1]) > markerMs) after.push(Number(scavenge[2]))
        }
        return after
      }
      const [single, parallel] = await Promise.all([helperMs('single'), helperMs('default')])
      const seen = JSON.stringify({ single, parallel })
      expect(single.length, seen).toBeGreaterThanOrEqual(10)
      expect(parallel.length, seen).toBeGreaterThanOrEqual(10)
      expect(
        single.every((ms) => ms === 0),
        seen,
      ).toBe(true)
      // The control: V8's default shares these scavenges with a helper thread.
      expect(
        parallel.some((ms) => ms > 0),
        seen,
      ).toBe(true)
    },
    CHILD_TIMEOUT_MS * 2,
  )

  it(
    'takes effect at run time: V8 sets its next old-generation limit at (1 + percent/100) × the live heap',
    async () => {
      // V8's own factor depends on measured GC and mutator speeds (1.1–4); with the flag it is fixed.
      const [times2, times4] = await Promise.all([heapLimitAfterGc(100), heapLimitAfterGc(300)])
      const seen = JSON.stringify({ times2, times4 })
      // Limit = live × (1 + percent/100) + the young generation's capacity (up to 16 MB).
      for (const [{ liveMb, limitMb }, factor] of [
        [times2, 2],
        [times4, 4],
      ] as const) {
        expect(limitMb, seen).toBeGreaterThanOrEqual(liveMb * factor)
        expect(limitMb, seen).toBeLessThanOrEqual(liveMb * factor + 20)
      }
    },
    CHILD_TIMEOUT_MS * 2,
  )
})
