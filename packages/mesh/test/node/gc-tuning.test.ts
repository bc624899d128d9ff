import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { STREAMING_HEAP_GROWING_PERCENT, tuneGcForStreaming } from '../../src/node/gc-tuning.js'

const CHILD = fileURLToPath(new URL('./gc-tuning-child.ts', import.meta.url))
const CHILD_TIMEOUT_MS = 60_000

/** The child's V8 trace: live MB after its explicit major GC, and the old-generation limit when marking next starts. */
async function heapLimitAfterGc(percent: number): Promise<{ liveMb: number; limitMb: number }> {
  const args = ['--expose-gc', '--trace-gc', '--trace-incremental-marking', '--conditions=source', '--import', 'tsx']
  const child = spawn(process.execPath, [...args, CHILD, String(percent)], { stdio: ['ignore', 'pipe', 'pipe'] })
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
      expect(tuneGcForStreaming({ execArgv })).toEqual({ applied: false, heapGrowingPercent: undefined })
    }
  })

  it('applies the streaming percent, or the one asked for', () => {
    expect(tuneGcForStreaming({ execArgv: ['--max-old-space-size=4096'] })).toEqual({
      applied: true,
      heapGrowingPercent: STREAMING_HEAP_GROWING_PERCENT,
    })
    expect(tuneGcForStreaming({ heapGrowingPercent: 200, execArgv: [] })).toEqual({
      applied: true,
      heapGrowingPercent: 200,
    })
  })

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
