/**
 * The peer's persistent identity: an Ed25519 private key kept in `<dataDir>/peer-key`, protobuf-
 * marshalled by @libp2p/crypto, readable by the owner only (0600). Created on first start; a peer id
 * that changed on every restart would look like a new member each time and lose its replicas.
 */
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { PEER_KEY_FILE } from '../constants.js'
import { type Logger, silentLogger } from '../logger.js'
import { PeerKeyCorruptError } from './identity-error.js'

export { PeerKeyCorruptError }

export interface LoadIdentityOptions {
  logger?: Logger
}

/** Reads `<dataDir>/peer-key`, or creates it (atomically: temp file, fsync, rename) if absent. */
export async function loadOrCreatePeerKey(dataDir: string, options: LoadIdentityOptions = {}): Promise<PrivateKey> {
  const logger = options.logger ?? silentLogger
  const path = join(dataDir, PEER_KEY_FILE)
  const existing = await readKey(path, logger)
  if (existing !== undefined) return existing

  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  const key = await generateKeyPair('Ed25519')
  const tmp = `${path}.${process.pid}.tmp`
  const file = await open(tmp, 'w', 0o600)
  try {
    await file.writeFile(privateKeyToProtobuf(key))
    await file.sync()
  } finally {
    await file.close()
  }
  try {
    await rename(tmp, path)
  } catch (err) {
    await rm(tmp, { force: true })
    throw err
  }
  logger.info({ path }, 'created a new peer identity')
  return key
}

async function readKey(path: string, logger: Logger): Promise<PrivateKey | undefined> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  let key: PrivateKey
  try {
    key = privateKeyFromProtobuf(bytes)
  } catch (err) {
    throw new PeerKeyCorruptError(path, { cause: err })
  }
  const { mode } = await stat(path)
  if ((mode & 0o077) !== 0) {
    // Someone widened the permissions; a private key readable by others must be tightened.
    logger.warn({ path, mode: (mode & 0o777).toString(8) }, 'peer key was readable by others; setting mode 0600')
    await chmod(path, 0o600)
  }
  return key
}
