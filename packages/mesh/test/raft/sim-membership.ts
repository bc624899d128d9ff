/**
 * The parts of a peer around Raft that voter replacement needs, as the simulation plays them:
 * gossiped metadata (the assignment the newest leader publishes, reaching every node after a
 * random delay), membership (the peers placement may pick: every node not gone for good, in a
 * fixed per-seed rendezvous-like order), and the partition host (start a replica when the
 * assignment names a node, delete it when `isRemoved` says the partition no longer needs it).
 */

import { murmur3 } from '../../src/placement.js'
import { type Assignment, isRemoved, type PartitionRaft } from '../../src/raft/index.js'

export interface PublishedAssignment extends Assignment {
  /** The publishing leader's epoch: a record of an older epoch never replaces a newer one. */
  epoch: number
}

/** One node as the host sees it. */
export interface HostedNode {
  readonly id: string
  readonly raft: PartitionRaft | undefined
  /** The process runs (crashed and dead nodes do not). */
  readonly up: boolean
  /** Holds (or last held, if down) a replica of the partition. */
  readonly hosting: boolean
}

const utf8 = new TextEncoder()

/** Every node id in a fixed order per seed: who placement prefers. */
export function placementOrder(seed: number, ids: readonly string[]): string[] {
  const score = (id: string): number => murmur3(utf8.encode(`${seed}/${id}`), 0x9747b28c)
  return [...ids].sort((a, b) => score(b) - score(a) || (a < b ? -1 : 1))
}

/** What the newest leader publishes, if it is newer than what was published (PartitionStates' rule). */
export function newestAssignment(
  nodes: readonly HostedNode[],
  current: PublishedAssignment | undefined,
): PublishedAssignment | undefined {
  let best: PublishedAssignment | undefined
  for (const node of nodes) {
    const raft = node.raft
    if (!node.up || raft?.role !== 'leader') continue
    const a = raft.assignment()
    if (a !== undefined && (best === undefined || raft.epoch > best.epoch)) best = { ...a, epoch: raft.epoch }
  }
  if (best === undefined || (current !== undefined && best.epoch < current.epoch)) return undefined
  return best
}

/** What the host of `node` does with `published`: start hosting, drop its replica, or nothing. */
export function hostAction(node: HostedNode, published: PublishedAssignment): 'host' | 'remove' | undefined {
  if (!node.up) return undefined
  if (node.hosting) {
    const raft = node.raft
    if (raft === undefined) return undefined
    return isRemoved(node.id, raft.voterSet, published) ? 'remove' : undefined
  }
  return published.voters.includes(node.id) || published.observers.includes(node.id) ? 'host' : undefined
}
