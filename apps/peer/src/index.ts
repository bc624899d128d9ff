/**
 * The `tributary` command line. `tributary peer start` runs a headless peer; see `--help`.
 */
export { buildProgram, runCli } from './cli.js'
export { DEFAULTS, type PeerFile, type StartPeerOptions, startPeerProcess } from './start-peer.js'
