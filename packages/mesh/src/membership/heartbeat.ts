/**
 * Heartbeat bytes: encoding our own, and validating a peer's before it touches the view. Everything
 * in a heartbeat comes from the network, so each field is bounded and checked here, and the claimed
 * sender must be the peer that signed the gossipsub message.
 */
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr'
import { ErrorCode, TributaryError } from '@tributary/wire'
import { Heartbeat } from '@tributary/wire/pb/membership'
import {
  MAX_ADDRESS_LENGTH,
  MAX_HEARTBEAT_ADDRESSES,
  MAX_HEARTBEAT_BYTES,
  MAX_PEER_ID_LENGTH,
  MAX_VERSION_LENGTH,
} from '../constants.js'
import { type MemberRoles, STORAGE_KINDS, type StorageKind } from './types.js'

export class InvalidHeartbeatError extends TributaryError {
  static override name = 'InvalidHeartbeatError'
  constructor(message: string) {
    super(message, { code: ErrorCode.CORRUPT_MESSAGE, retriable: false })
  }
}

export interface ValidHeartbeat {
  peerId: string
  incarnation: bigint
  seq: bigint
  roles: MemberRoles
  storage: StorageKind
  version: string
  addresses: string[]
  leaving: boolean
}

export function encodeHeartbeat(heartbeat: ValidHeartbeat): Uint8Array {
  return Heartbeat.encode({ ...heartbeat, roles: { ...heartbeat.roles } })
}

/**
 * Decodes and checks a heartbeat that arrived signed by `signer`. Throws InvalidHeartbeatError.
 * Addresses without a /p2p/ suffix get the sender's; one naming another peer makes the heartbeat invalid.
 */
export function decodeHeartbeat(data: Uint8Array, signer: string): ValidHeartbeat {
  if (data.byteLength > MAX_HEARTBEAT_BYTES) {
    throw new InvalidHeartbeatError(`heartbeat of ${data.byteLength} bytes exceeds ${MAX_HEARTBEAT_BYTES}`)
  }
  let hb: Heartbeat
  try {
    hb = Heartbeat.decode(data, { limits: { addresses: MAX_HEARTBEAT_ADDRESSES } })
  } catch (err) {
    throw new InvalidHeartbeatError(`undecodable heartbeat: ${(err as Error).message}`)
  }
  if (hb.peerId.length === 0 || hb.peerId.length > MAX_PEER_ID_LENGTH || hb.peerId !== signer) {
    throw new InvalidHeartbeatError(
      `heartbeat claims peer ${hb.peerId.slice(0, MAX_PEER_ID_LENGTH)} but is signed by ${signer}`,
    )
  }
  if (!(STORAGE_KINDS as readonly string[]).includes(hb.storage)) {
    throw new InvalidHeartbeatError(`unknown storage kind ${JSON.stringify(hb.storage.slice(0, 16))}`)
  }
  if (hb.version.length > MAX_VERSION_LENGTH) throw new InvalidHeartbeatError('heartbeat version string too long')
  if (hb.incarnation === 0n || hb.seq === 0n) throw new InvalidHeartbeatError('heartbeat without incarnation or seq')
  return {
    peerId: hb.peerId,
    incarnation: hb.incarnation,
    seq: hb.seq,
    roles: { voter: hb.roles?.voter ?? false, observer: hb.roles?.observer ?? false },
    storage: hb.storage as StorageKind,
    version: hb.version,
    addresses: hb.addresses.map((address) => checkAddress(address, hb.peerId)),
    leaving: hb.leaving,
  }
}

function checkAddress(address: string, peerId: string): string {
  if (address.length > MAX_ADDRESS_LENGTH) throw new InvalidHeartbeatError('heartbeat address too long')
  let ma: Multiaddr
  try {
    ma = multiaddr(address)
  } catch {
    throw new InvalidHeartbeatError(`heartbeat address ${JSON.stringify(address.slice(0, 64))} is not a multiaddr`)
  }
  const owner = lastPeerId(ma)
  if (owner === undefined) return ma.encapsulate(`/p2p/${peerId}`).toString()
  if (owner !== peerId) throw new InvalidHeartbeatError(`heartbeat address ${address} belongs to another peer`)
  return ma.toString()
}

export function lastPeerId(ma: Multiaddr): string | undefined {
  return ma.getComponents().findLast((component) => component.name === 'p2p')?.value
}
