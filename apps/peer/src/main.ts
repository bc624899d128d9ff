// Node 20 needs these before libp2p loads (PLATFORM.md); this import must stay first.
import '@tributary/mesh/polyfills'
import { tuneGcForStreaming } from '@tributary/mesh/gc-tuning'
import { runCli } from './cli.js'

// Peers and the perf tools stream records: without this, V8 runs a major GC every few hundred ms
// under load (see gc-tuning.ts). `node --heap-growing-percent=N` on the command line wins.
tuneGcForStreaming()
process.exitCode = await runCli(process.argv)
