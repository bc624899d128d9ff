/**
 * `@tributary/client/gc-tuning` (Node only): V8 heap tuning for an application that produces or
 * consumes at volume. Why and what it costs: `@tributary/mesh/gc-tuning`, which the peer applies
 * to itself.
 */
export {
  type GcTuningOptions,
  type GcTuningResult,
  SINGLE_THREADED_SCAVENGE_MAX_CORES,
  STREAMING_HEAP_GROWING_PERCENT,
  tuneGcForStreaming,
} from '@tributary/mesh/gc-tuning'
