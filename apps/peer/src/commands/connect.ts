/**
 * Connecting the SDK to the peer a command names (peer-address.ts). `Tributary.connect` waits
 * until a peer answers; if none does within CONNECT_TIMEOUT_MS the user reads one line saying
 * where we looked and how to start a peer (the SDK's error stays attached as `cause`).
 */
import { Tributary } from '@tributary/client'
import { CommanderError } from 'commander'
import { findPeer, NoPeerError, type PeerLookup, START_HINT } from './peer-address.js'

export type Mesh = Tributary

/** How long a command waits for the first peer to answer before saying none did. */
export const CONNECT_TIMEOUT_MS = 10_000

export async function connectMesh(lookup: PeerLookup, signal: AbortSignal): Promise<Mesh> {
  const target = await findPeer(lookup)
  try {
    return await Tributary.connect({ bootstrap: target.addresses, connectionTimeout: CONNECT_TIMEOUT_MS, signal })
  } catch (err) {
    if (signal.aborted) throw err
    if (err instanceof Error && err.name === 'InvalidArgumentError') {
      // A malformed --peer / TRIBUTARY_PEER is a usage mistake: exit 2, like any bad argument.
      process.stderr.write(`error: ${target.source}: ${err.message}\n`)
      throw new CommanderError(2, 'tributary.usage', err.message)
    }
    const where =
      target.source === '--peer' || target.source === 'TRIBUTARY_PEER' ? target.source : `from ${target.source}`
    throw new NoPeerError(`no peer answered at ${target.addresses[0]} (${where}); ${START_HINT}`, { cause: err })
  }
}
