// Node 20 needs these before libp2p loads (PLATFORM.md); this import must stay first.
import '@tributary/mesh/polyfills'
import { runCli } from './cli.js'

process.exitCode = await runCli(process.argv)
