/**
 * Which peer a command talks to: `--peer MULTIADDR` (repeatable), else `TRIBUTARY_PEER`
 * (comma-separated), else the addresses `tributary peer start` saved in `<data>/peer.json`
 * (`--data`, default ./data). When none is given or none answers, the error says how to start one.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { InvalidArgumentError } from 'commander'
import type { PeerFile } from '../start-peer.js'

export const START_HINT = 'start one with `npx tributary peer start` (or `npm start`)'

/** No peer to talk to: the message is one line a user can act on. The CLI exits 1. */
export class NoPeerError extends Error {
  static override name = 'NoPeerError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'NoPeerError'
  }
}

export interface PeerTarget {
  addresses: string[]
  /** Where the addresses came from, for messages: `--peer`, `TRIBUTARY_PEER` or the file. */
  source: string
}

export interface PeerLookup {
  peer?: string[] | undefined
  data: string
  env?: NodeJS.ProcessEnv
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** TCP before WebSocket: a Node client dials TCP fastest; the rest stay as fallbacks. */
function tcpFirst(addresses: string[]): string[] {
  const ws = (a: string): boolean => /\/wss?(\/|$)/.test(a)
  return [...addresses.filter((a) => !ws(a)), ...addresses.filter(ws)]
}

export async function findPeer(lookup: PeerLookup): Promise<PeerTarget> {
  if (lookup.peer !== undefined && lookup.peer.length > 0) return { addresses: lookup.peer, source: '--peer' }
  const fromEnv = (lookup.env ?? process.env).TRIBUTARY_PEER?.split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
  if (fromEnv !== undefined && fromEnv.length > 0) {
    const bad = fromEnv.find((a) => !a.startsWith('/'))
    if (bad !== undefined)
      throw new NoPeerError(`TRIBUTARY_PEER holds '${bad}', which is not a multiaddr (/ip4/…/tcp/…/p2p/…)`)
    return { addresses: fromEnv, source: 'TRIBUTARY_PEER' }
  }
  const file = join(resolve(lookup.data), 'peer.json')
  let saved: PeerFile
  try {
    saved = JSON.parse(await readFile(file, 'utf8')) as PeerFile
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no peer has run there' : 'it is unreadable'
    throw new NoPeerError(
      `no peer to talk to: no --peer, no TRIBUTARY_PEER, and ${file} names none (${why}); ${START_HINT}`,
    )
  }
  const addresses = Array.isArray(saved.addresses) ? saved.addresses.filter((a) => typeof a === 'string') : []
  if (addresses.length === 0) throw new NoPeerError(`${file} lists no addresses; ${START_HINT}`)
  // The file outlives its peer: a pid that no longer runs means nothing will answer.
  if (Number.isInteger(saved.pid) && saved.pid > 0 && !alive(saved.pid))
    throw new NoPeerError(`the peer saved in ${file} (pid ${saved.pid}) is not running; ${START_HINT}`)
  return { addresses: tcpFirst(addresses), source: file }
}

/** `--peer` values: multiaddrs only (a host:port is a common slip). */
export function peerOption(value: string, previous: string[] = []): string[] {
  const added = value
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
  const bad = added.find((a) => !a.startsWith('/'))
  if (bad !== undefined || added.length === 0)
    throw new InvalidArgumentError(
      'must be a multiaddr like /ip4/127.0.0.1/tcp/4001/p2p/12D3KooW… (see data/peer.json)',
    )
  return [...previous, ...added]
}
