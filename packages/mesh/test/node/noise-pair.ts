/** Test helper: two ends of a real noise handshake over an in-memory connection pair. */
import { generateKeyPair } from '@libp2p/crypto/keys'
import type { ConnectionEncrypter } from '@libp2p/interface'
import { multiaddrConnectionPair } from '@libp2p/utils'

/** A libp2p component logger that drops everything. */
const quiet: unknown = Object.assign(() => {}, {
  error: () => {},
  trace: () => {},
  enabled: false,
  newScope: () => quiet,
})

/** Secures both ends of a fresh connection pair with encrypters from `factory` (e.g. `noise()`). */
export async function securedPair(factory: (components: never) => ConnectionEncrypter) {
  const [outbound, inbound] = multiaddrConnectionPair()
  const encrypter = async () => {
    const components = {
      privateKey: await generateKeyPair('Ed25519'),
      logger: { forComponent: () => quiet },
      upgrader: { getStreamMuxers: () => new Map() },
    }
    return factory(components as never)
  }
  const [a, b] = await Promise.all([encrypter(), encrypter()])
  const options = { skipStreamMuxerNegotiation: true, signal: AbortSignal.timeout(10_000) }
  const [client, server] = await Promise.all([a.secureOutbound(outbound, options), b.secureInbound(inbound, options)])
  return { client, server }
}
