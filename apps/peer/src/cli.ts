import { Command, CommanderError, InvalidArgumentError } from 'commander'
import { registerCommands } from './commands/index.js'
import { AlreadyRunningError } from './data-dir-lock.js'
import { DEFAULTS, startPeerProcess } from './start-peer.js'

function port(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new InvalidArgumentError('must be a port number (0-65535; 0 picks a free one)')
  return n
}

function millis(value: string): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError('must be a positive whole number of milliseconds')
  return n
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter((v) => v.trim() !== '')]
}

/** Builds the `tributary` program; exit codes: 0 ok, 1 runtime failure, 2 bad usage. */
export function buildProgram(): Command {
  const program = new Command('tributary')
    .description("Kafka's model of streaming on a peer-to-peer mesh")
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride()

  const peer = program.command('peer').description('run and manage a peer')
  peer
    .command('start')
    .description('start a headless peer: stores and serves partitions, gossips membership and metadata')
    .option('--data <dir>', 'data directory (logs, identity, metadata)', DEFAULTS.dataDir)
    .option('--host <address>', 'interface to listen on', DEFAULTS.host)
    .option('--port <n>', 'TCP port for peers and clients (0: any free port)', port, DEFAULTS.port)
    .option('--ws-port <n>', 'WebSocket port for browsers (0: any free port)', port, DEFAULTS.wsPort)
    .option('--http-port <n>', 'HTTP port for /health and /metrics (0: any free port)', port, DEFAULTS.httpPort)
    .option('--bootstrap <multiaddr>', 'a peer to join through (repeatable, or comma-separated)', collect, [])
    .option('--no-voter', 'replicate without voting or being placed as a replica')
    .option('--log-level <level>', 'trace | debug | info | warn | error', DEFAULTS.logLevel)
    .option(
      '--replica-lag-time-max-ms <ms>',
      'a voter not caught up for this long leaves the in-sync set (Kafka replica.lag.time.max.ms; default 30000)',
      millis,
    )
    .option(
      '--replica-replacement-delay-ms <ms>',
      'a voter out of the in-sync set for this long is replaced by another peer (default 60000)',
      millis,
    )
    .option(
      '--leader-imbalance-check-interval-ms <ms>',
      'how often leaders hand leadership back to preferred leaders (default 30000)',
      millis,
    )
    .option('--no-auto-leader-rebalance', 'never hand leadership back to preferred leaders')
    .action(
      async (opts: {
        data: string
        host: string
        port: number
        wsPort: number
        httpPort: number
        bootstrap: string[]
        voter: boolean
        logLevel: string
        replicaLagTimeMaxMs?: number
        replicaReplacementDelayMs?: number
        leaderImbalanceCheckIntervalMs?: number
        autoLeaderRebalance: boolean
      }) => {
        await startPeerProcess({
          dataDir: opts.data,
          host: opts.host,
          port: opts.port,
          wsPort: opts.wsPort,
          httpPort: opts.httpPort,
          bootstrap:
            opts.bootstrap.length > 0
              ? opts.bootstrap
              : (process.env.TRIBUTARY_BOOTSTRAP?.split(',').filter(Boolean) ?? []),
          voter: opts.voter,
          logLevel: opts.logLevel,
          raft: {
            ...(opts.replicaLagTimeMaxMs === undefined ? {} : { replicaLagTimeMaxMs: opts.replicaLagTimeMaxMs }),
            ...(opts.replicaReplacementDelayMs === undefined
              ? {}
              : { replicaReplacementDelayMs: opts.replicaReplacementDelayMs }),
            ...(opts.leaderImbalanceCheckIntervalMs === undefined
              ? {}
              : { leaderImbalanceCheckIntervalMs: opts.leaderImbalanceCheckIntervalMs }),
            autoLeaderRebalanceEnable: opts.autoLeaderRebalance,
          },
        })
      },
    )
  registerCommands(program)
  return program
}

export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram()
  try {
    await program.parseAsync(argv)
    return 0
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2
    if (err instanceof AlreadyRunningError) {
      process.stderr.write(`tributary: ${err.message}\n`)
      return 1
    }
    process.stderr.write(`tributary: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  }
}
