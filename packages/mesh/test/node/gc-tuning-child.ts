/**
 * Child process for gc-tuning.test.ts, run with `--expose-gc --trace-gc --trace-incremental-marking`.
 * argv[2]: the heap growing percent given to tuneGcForStreaming(). It retains a live heap, runs a
 * major GC (V8 sets the next old-generation limit from the live size then), and keeps retaining
 * memory until past where that limit would be: V8's trace shows both the live size and the limit
 * at which incremental marking starts.
 */
import { tuneGcForStreaming } from '../../src/node/gc-tuning.js'

const MB = 1024 * 1024
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')
tuneGcForStreaming({ heapGrowingPercent: Number(process.argv[2]) })
const retained: number[][] = []
const retainMb = (mb: number): void => {
  // Arrays of small integers: about 8 bytes per element in old space once promoted.
  for (let i = 0; i < mb; i++) retained.push(new Array<number>(MB / 8).fill(i))
}
retainMb(40)
gc()
process.stdout.write('tributary-gc-marker\n')
// Bounded: 240 MB, past 4× the 40 MB live heap plus the young generation.
for (let i = 0; i < 240; i++) retainMb(1)
process.stdout.write(`retained ${retained.length}\n`)
