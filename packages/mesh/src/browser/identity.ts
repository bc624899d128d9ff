/**
 * A browser peer's identity, kept in its IndexedDB database so a reloaded tab is the same peer
 * (a new peer id on every reload would look like a new member and orphan its replicas). The
 * Ed25519 key is stored protobuf-marshalled, as the Node peer keeps it in `peer-key`.
 */
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { PeerKeyCorruptError } from '../node/identity-error.js'
import { KV, type PeerDatabase } from './peer-database.js'

const KEY = 'peer-key'

export async function loadOrCreateBrowserPeerKey(db: PeerDatabase): Promise<PrivateKey> {
  const stored = await db.get(KV, KEY)
  if (stored !== undefined) {
    try {
      if (!(stored instanceof Uint8Array)) throw new TypeError('not bytes')
      return privateKeyFromProtobuf(stored)
    } catch (err) {
      throw new PeerKeyCorruptError(`IndexedDB '${db.name}' (${KEY})`, { cause: err })
    }
  }
  const key = await generateKeyPair('Ed25519')
  await db.put(KV, KEY, privateKeyToProtobuf(key))
  return key
}
