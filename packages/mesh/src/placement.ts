/**
 * Replica placement by rendezvous (highest-random-weight) hashing: every voter gets a
 * pseudo-random score for each (topic, partition), and the partition lives on the top
 * `replicationFactor` scorers, the best one being the preferred leader.
 *
 * Why rendezvous hashing: any peer computes the same answer from the same inputs with no
 * coordination, and when a voter joins it takes over exactly the partitions where it outscores
 * somebody — about RF/(n+1) of the replica slots — while every other assignment stays put.
 *
 * Why a hand-written hash rather than `Math.random` or SHA-256: the score must be identical on
 * every peer and every run (`Math.random` is unseeded and per process), must be synchronous and
 * available in browsers and Node alike (WebCrypto digests are async; `node:crypto` does not exist
 * in a browser), and must be well mixed so leaders spread evenly (a Java-style string hash does
 * not avalanche). Two MurmurHash3 (x86, 32-bit) lanes with different seeds give a 64-bit score,
 * which makes ties between voters practically impossible; ties still fall back to the peer id so
 * the result never depends on input order.
 */
import { InvalidReplicationFactorError } from './metadata/errors.js'

const utf8 = new TextEncoder()
const SEED_HIGH = 0x9747b28c
const SEED_LOW = 0x5bd1e995

interface Scored {
  peerId: string
  high: number
  low: number
}

/**
 * The replicas of `partition` of topic `topicId`, best first: the preferred leader is the first.
 * Deterministic, independent of the order (and duplicates) of `voters`.
 *
 * `servers`, when given, are the voters every client can reach (Node peers, listening on TCP and
 * WebSockets; a browser is reachable only through relays and WebRTC, which Node clients do not
 * speak). Which voters hold the partition is still decided by score alone; among them, servers
 * come first, so a browser leads a partition only while no server replica can.
 */
export function placeReplicas(
  topicId: string,
  partition: number,
  replicationFactor: number,
  voters: readonly string[],
  servers?: ReadonlySet<string>,
): string[] {
  if (!Number.isSafeInteger(partition) || partition < 0) {
    throw new RangeError(`partition must be a non-negative integer, got ${partition}`)
  }
  const distinct = [...new Set(voters)]
  if (!Number.isInteger(replicationFactor) || replicationFactor < 1 || replicationFactor > distinct.length) {
    throw new InvalidReplicationFactorError(
      `replication factor ${replicationFactor} for partition ${topicId}-${partition} needs between 1 and ` +
        `${distinct.length} voters (the voting peers available); lower it or add voting peers`,
    )
  }
  const prefix = placementPrefix(topicId, partition)
  const scored = distinct.map((peerId) => score(prefix, peerId))
  scored.sort(byScoreDescending)
  const chosen = scored.slice(0, replicationFactor).map((s) => s.peerId)
  if (servers === undefined) return chosen
  return [...chosen.filter((id) => servers.has(id)), ...chosen.filter((id) => !servers.has(id))]
}

/** The preferred leader of a replica list: its first member (undefined for an empty list). */
export function preferredLeader(replicas: readonly string[]): string | undefined {
  return replicas[0]
}

/**
 * The 64-bit rendezvous score of `peerId` for a partition, as [high, low] unsigned 32-bit halves.
 * Exported for tests and diagnostics.
 */
export function rendezvousScore(topicId: string, partition: number, peerId: string): [number, number] {
  const s = score(placementPrefix(topicId, partition), peerId)
  return [s.high, s.low]
}

/**
 * The hashed bytes are len(topicId) ‖ topicId ‖ partition ‖ peerId, the length keeping
 * ("ab", "c") and ("a", "bc") apart.
 */
function placementPrefix(topicId: string, partition: number): Uint8Array {
  const id = utf8.encode(topicId)
  const prefix = new Uint8Array(id.length + 8)
  const view = new DataView(prefix.buffer)
  view.setUint32(0, id.length, true)
  prefix.set(id, 4)
  view.setUint32(4 + id.length, partition >>> 0, true)
  return prefix
}

function score(prefix: Uint8Array, peerId: string): Scored {
  const peer = utf8.encode(peerId)
  const bytes = new Uint8Array(prefix.length + peer.length)
  bytes.set(prefix)
  bytes.set(peer, prefix.length)
  return { peerId, high: murmur3(bytes, SEED_HIGH), low: murmur3(bytes, SEED_LOW) }
}

function byScoreDescending(a: Scored, b: Scored): number {
  if (a.high !== b.high) return b.high - a.high
  if (a.low !== b.low) return b.low - a.low
  return a.peerId < b.peerId ? -1 : a.peerId > b.peerId ? 1 : 0
}

/** MurmurHash3 x86_32 (Austin Appleby, public domain), returned unsigned. */
export function murmur3(bytes: Uint8Array, seed: number): number {
  const c1 = 0xcc9e2d51
  const c2 = 0x1b873593
  let h = seed >>> 0
  const blocks = bytes.length - (bytes.length % 4)
  for (let i = 0; i < blocks; i += 4) {
    let k =
      (bytes[i] as number) |
      ((bytes[i + 1] as number) << 8) |
      ((bytes[i + 2] as number) << 16) |
      ((bytes[i + 3] as number) << 24)
    k = Math.imul(k, c1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, c2)
    h ^= k
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  const tail = bytes.length & 3
  if (tail > 0) {
    let k = 0
    if (tail === 3) k ^= (bytes[blocks + 2] as number) << 16
    if (tail >= 2) k ^= (bytes[blocks + 1] as number) << 8
    k ^= bytes[blocks] as number
    k = Math.imul(k, c1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, c2)
    h ^= k
  }
  h ^= bytes.length
  // fmix32: the avalanche step that makes nearby inputs (peer ids sharing a prefix) score unrelatedly.
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}
