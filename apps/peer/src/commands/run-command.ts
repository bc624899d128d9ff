/**
 * What every mesh command shares: its `--peer`/`--data` options, a signal that Ctrl-C and
 * SIGTERM abort (a second signal exits at once with 130), the Output, and a connected SDK
 * client released at the end whatever happened. Failures are thrown with a message a user can
 * act on; cli.ts prints it and exits 1.
 */
import type { Command } from 'commander'
import { connectMesh, type Mesh } from './connect.js'
import { Output } from './output.js'
import { peerOption } from './peer-address.js'

export interface PeerOptions {
  /** Absent unless --peer was given (no default, so help shows none). */
  peer?: string[]
  data: string
}

export function peerOptions(command: Command): Command {
  return command
    .option(
      '--peer <multiaddr>',
      'a peer to talk to (repeatable, or comma-separated); default: $TRIBUTARY_PEER, else <data>/peer.json',
      peerOption,
    )
    .option('--data <dir>', 'data directory of a local peer, whose peer.json names its addresses', './data')
}

export interface CommandContext {
  mesh: Mesh
  output: Output
  /** Aborted on SIGINT/SIGTERM or when stdout's reader went away. */
  signal: AbortSignal
  /** Why `signal` was aborted, once it is. */
  stoppedBy(): 'signal' | 'reader' | undefined
}

/** Aborts on the first SIGINT/SIGTERM; a second one exits now (130, as a shell reports Ctrl-C). */
export function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(130)
    controller.abort(new Error(`stopped by ${name}`))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
}

export async function withMesh<T>(options: PeerOptions, body: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const output = new Output()
  const interrupt = interruptSignal()
  const signal = AbortSignal.any([interrupt.signal, output.closed])
  let mesh: Mesh | undefined
  try {
    mesh = await connectMesh(options, signal)
    return await body({
      mesh,
      output,
      signal,
      stoppedBy: () => (interrupt.signal.aborted ? 'signal' : output.closed.aborted ? 'reader' : undefined),
    })
  } finally {
    await mesh?.disconnect().catch(() => {})
    interrupt.dispose()
    output.dispose()
  }
}
