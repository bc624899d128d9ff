/**
 * The page learns how to join the mesh from the peer that served it: `/bootstrap.json` lists
 * that peer's WebSocket multiaddrs. The answer is size-bounded and checked before use.
 */
export interface Bootstrap {
  peerId: string
  addresses: string[]
}

export class BootstrapError extends Error {
  static override readonly name = 'BootstrapError'
  override readonly name = 'BootstrapError'
}

const MAX_BYTES = 64 * 1024
const MAX_ADDRESSES = 64

/** Checks a parsed `/bootstrap.json`; throws BootstrapError naming what is wrong. */
export function parseBootstrap(value: unknown): Bootstrap {
  if (typeof value !== 'object' || value === null) throw new BootstrapError('bootstrap.json is not an object')
  const { peerId, addresses } = value as { peerId?: unknown; addresses?: unknown }
  if (typeof peerId !== 'string' || peerId.length === 0 || peerId.length > 128) {
    throw new BootstrapError('bootstrap.json has no peerId')
  }
  if (!Array.isArray(addresses) || addresses.length > MAX_ADDRESSES) {
    throw new BootstrapError(`bootstrap.json must list at most ${MAX_ADDRESSES} addresses`)
  }
  const valid = addresses.filter(
    (a): a is string => typeof a === 'string' && a.length <= 1024 && a.startsWith('/') && a.includes('/p2p/'),
  )
  if (valid.length === 0) {
    throw new BootstrapError(`peer ${peerId} offers no WebSocket address with /p2p/ for a browser to dial`)
  }
  return { peerId, addresses: valid }
}

export async function fetchBootstrap(url: string, signal: AbortSignal): Promise<Bootstrap> {
  let res: Response
  try {
    res = await fetch(url, { signal, cache: 'no-store' })
  } catch (err) {
    throw new BootstrapError(`could not reach ${url}: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (!res.ok) throw new BootstrapError(`${url} answered ${res.status}`)
  const text = await res.text()
  if (text.length > MAX_BYTES) throw new BootstrapError(`${url} is larger than ${MAX_BYTES} bytes`)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new BootstrapError(`${url} is not JSON`)
  }
  return parseBootstrap(parsed)
}
