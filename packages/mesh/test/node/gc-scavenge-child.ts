/**
 * Child process for gc-tuning.test.ts, run with `--trace-gc-nvp`. argv[2]: `single` or `default`,
 * the singleThreadedScavenge given to tuneGcForStreaming(). After a marker line (with the time) it
 * keeps the last few MB of small objects alive while allocating more, so every scavenge has
 * megabytes to copy:
 * work V8 shares with a helper thread unless scavenges are single-threaded. The trace shows, per
 * scavenge, how long helpers worked (`background.scavenge.parallel`).
 */
import { tuneGcForStreaming } from '../../src/node/gc-tuning.js'

const mode = process.argv[2]
if (mode !== 'single' && mode !== 'default') throw new Error('usage: gc-scavenge-child.ts single|default')
tuneGcForStreaming({ singleThreadedScavenge: mode === 'single' })
// V8's trace lines come from every isolate in the process (tsx's loader runs in a worker) and are
// written apart from this process's stdout stream, so their order around this line is not
// guaranteed (a CI run saw a scavenge from before it printed after it). The marker carries the
// time instead: performance.now() counts from process start, a little before an isolate's clock in
// the trace starts, so a trace line with a later time surely comes after this point.
process.stdout.write(`tributary-gc-marker ${performance.now().toFixed(1)}\n`)
/** Live window: 64 slots of 1,000 objects (~40 bytes each), about 2.5 MB alive at any time. */
const SLOTS = 64
const ring: { id: number; next: unknown }[][] = new Array(SLOTS)
// Bounded: 3,000 rounds allocate about 120 MB, some 15–60 scavenges with a 1–16 MB young generation.
for (let round = 0; round < 3000; round++) {
  const group = new Array<{ id: number; next: unknown }>(1000)
  for (let i = 0; i < 1000; i++) group[i] = { id: round * 1000 + i, next: group[i - 1] }
  ring[round % SLOTS] = group
}
process.stdout.write(`done ${ring.length}\n`)
