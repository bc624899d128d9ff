// Node 20 needs these before libp2p loads (PLATFORM.md); this import must stay first.
import '@tributary/mesh/polyfills'
import { tuneGcForStreaming } from '@tributary/mesh/gc-tuning'
import { runCli } from './cli.js'

// Peers and the perf tools stream records: without this, V8 runs a major GC every few hundred ms
// under load, and on two cores its young-generation GCs wait for a helper thread (see
// gc-tuning.ts). `--heap-growing-percent=N` or `--[no-]parallel-scavenge` on node's command line wins.
tuneGcForStreaming()
process.exitCode = await runCli(process.argv)
