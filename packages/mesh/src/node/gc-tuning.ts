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
 *
 * Young-generation collections on the main thread alone (`--no-parallel-scavenge`), on machines
 * with at most two cores. Why: by default V8 splits each scavenge between the main thread and a
 * helper thread. A streaming process keeps little alive from one scavenge to the next (a peer
 * copies 25–70 KB per scavenge at 10,000 records/s), so there is little work to share, and on two
 * busy cores the main thread waits for a helper that has to be scheduled first. Measured on the
 * project's 2-core VM (`--trace-gc-nvp`, peer bench latency phase, 12 interleaved pairs of runs,
 * the flag on both peer and producer): the peer's mean scavenge pause fell from 1.44–2.45 ms
 * (mean 1.75) to 1.18–1.56 ms (mean 1.34), and its copying phase from 0.71 to 0.23 ms (one run
 * each); produce latency p99 was lower in 7 of 9 pairs (mean 4.50 → 3.93 ms); produce throughput
 * did not change (4 pairs). With more cores a helper is usually free at once, so V8's default is
 * kept there. V8 reads this flag at every scavenge, so it too can be set at run time;
 * `--parallel-scavenge` or `--no-parallel-scavenge` on node's command line wins.
 */
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'

/** Heap growing percent for streaming processes: the limit is 4× the live heap after a major GC. */
export const STREAMING_HEAP_GROWING_PERCENT = 300

/** Machines with at most this many cores scavenge on the main thread alone (see the module comment). */
export const SINGLE_THREADED_SCAVENGE_MAX_CORES = 2

const GROWING_FLAG = 'heap-growing-percent'
const SCAVENGE_FLAG = 'parallel-scavenge'

export interface GcTuningOptions {
  /** Growing percent to apply; default STREAMING_HEAP_GROWING_PERCENT. An integer from 1 to 1000. */
  heapGrowingPercent?: number
  /**
   * Whether scavenges run on the main thread alone (`--no-parallel-scavenge`); default: when
   * `os.availableParallelism()` is at most SINGLE_THREADED_SCAVENGE_MAX_CORES. False leaves V8's
   * default as it is.
   */
  singleThreadedScavenge?: boolean
  /** The process's node flags (default `process.execArgv`): either flag given there is kept. */
  execArgv?: readonly string[]
}

export interface GcTuningResult {
  /** The growing percent this call set; undefined when node's command line sets one. */
  heapGrowingPercent: number | undefined
  /** Whether this call made scavenges single-threaded (false: not wanted, or the command line decides). */
  singleThreadedScavenge: boolean
}

/** Whether node's flags set V8's `name`: `--name`, `--no-name` or `--noname`, with dashes or underscores, with or without a value. */
function givenOnCommandLine(execArgv: readonly string[], name: string): boolean {
  const spellings = [`--${name}`, `--no-${name}`, `--no${name}`]
  return execArgv.some((arg) => {
    const flag = arg.replaceAll('_', '-')
    return spellings.some((f) => flag === f || flag.startsWith(`${f}=`))
  })
}

/**
 * Sets V8's heap growing percent for a process that streams records and, on a machine with few
 * cores, single-threaded scavenges (see the module comment), each unless node's command line sets
 * it already. Affects the whole process. Idempotent.
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
  const result: GcTuningResult = { heapGrowingPercent: undefined, singleThreadedScavenge: false }
  if (!givenOnCommandLine(execArgv, GROWING_FLAG)) {
    setFlagsFromString(`--${GROWING_FLAG}=${percent}`)
    result.heapGrowingPercent = percent
  }
  const singleThreaded = options.singleThreadedScavenge ?? availableParallelism() <= SINGLE_THREADED_SCAVENGE_MAX_CORES
  if (singleThreaded && !givenOnCommandLine(execArgv, SCAVENGE_FLAG)) {
    setFlagsFromString(`--no-${SCAVENGE_FLAG}`)
    result.singleThreadedScavenge = true
  }
  return result
}
