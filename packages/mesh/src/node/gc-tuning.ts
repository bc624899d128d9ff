/**
 * V8 heap tuning for a Node process that moves record bytes: a peer, or a client that produces or
 * consumes at volume. Kafka's start scripts set the JVM's collector flags for the same reason.
 *
 * Why: V8 counts ArrayBuffer memory allocated since the last major collection against the old
 * generation's limit. A process streaming records allocates a fresh ArrayBuffer for nearly every
 * byte, more than once: each socket read, each noise decryption and encryption, each segment read
 * and each reassembled RPC frame. Its JavaScript heap, though, is small (20–40 MB) and grows
 * slowly, so few young-generation collections run, and the limit's slack above the live heap
 * (about 20 MB) is used up by every 20 MB or so of traffic. Each time, V8 runs a full
 * mark-compact. Measured with `--trace-gc` in the groups benchmark (2-core VM), each peer and
 * each member ran one every 0.3–0.5 s while reading. Major GC was about a quarter of their CPU
 * time, and most of those buffers would have been freed by a cheap young-generation collection.
 *
 * The fix: a larger heap growing factor (`--heap-growing-percent`) gives the limit room above
 * the live heap. Buffers that die young are then freed by young-generation collections, which V8
 * runs once 32 MiB of them are outstanding, before the limit is reached. The cost is memory: a
 * heap may grow to about (1 + percent/100) times its live size before a major collection, e.g.
 * 120–160 MB for a peer whose live heap is 30–40 MB.
 *
 * V8 reads the flag each time it sets a new limit after a major collection, so setting it at run
 * time takes effect from the next one. A value given on node's command line wins.
 */
import { setFlagsFromString } from 'node:v8'

/** Heap growing percent for streaming processes: the limit is 4× the live heap after a major GC. */
export const STREAMING_HEAP_GROWING_PERCENT = 300

const FLAG = '--heap-growing-percent'

export interface GcTuningOptions {
  /** Growing percent to apply; default STREAMING_HEAP_GROWING_PERCENT. An integer from 1 to 1000. */
  heapGrowingPercent?: number
  /** The process's node flags (default `process.execArgv`): a heap growing percent given there is kept. */
  execArgv?: readonly string[]
}

export interface GcTuningResult {
  /** Whether this call set the flag (false: node's command line already sets it). */
  applied: boolean
  /** The percent this call set; undefined when it set nothing. */
  heapGrowingPercent: number | undefined
}

/**
 * Sets V8's heap growing percent for a process that streams records (see the module comment), unless
 * node's command line sets it already. Affects the whole process. Idempotent.
 *
 * ```ts
 * import { tuneGcForStreaming } from '@tributary/client/gc-tuning'
 * tuneGcForStreaming() // before consuming or producing at volume
 * ```
 */
export function tuneGcForStreaming(options: GcTuningOptions = {}): GcTuningResult {
  const percent = options.heapGrowingPercent ?? STREAMING_HEAP_GROWING_PERCENT
  if (!Number.isInteger(percent) || percent < 1 || percent > 1000) {
    throw new RangeError(`heapGrowingPercent must be an integer from 1 to 1000, not ${percent}`)
  }
  const execArgv = options.execArgv ?? process.execArgv
  // V8 accepts the flag with dashes or underscores, with '=' or as two arguments.
  const given = execArgv.some((arg) => arg.replaceAll('_', '-').startsWith(FLAG))
  if (given) return { applied: false, heapGrowingPercent: undefined }
  setFlagsFromString(`${FLAG}=${percent}`)
  return { applied: true, heapGrowingPercent: percent }
}
