/** The membership view's vocabulary. */

export type MemberStatus = 'alive' | 'suspect' | 'dead' | 'left'
export type StorageKind = 'fs' | 'idb' | 'memory'
export const STORAGE_KINDS: readonly StorageKind[] = ['fs', 'idb', 'memory']

export interface MemberRoles {
  /** May vote in partition Raft groups (stable Node peers by default). */
  voter: boolean
  /** Replicates without voting (browsers by default). */
  observer: boolean
}

export interface Member {
  peerId: string
  status: MemberStatus
  roles: MemberRoles
  storage: StorageKind
  version: string
  /** Dialable multiaddrs, each ending in /p2p/<peerId>. */
  addresses: string[]
  /** Local clock (ms) when the last heartbeat of this incarnation arrived. */
  lastSeenMs: number
  /** Changes when the peer process restarts; a larger one supersedes. */
  incarnation: bigint
}

export type LeaveReason = 'left' | 'failed'

export interface MemberLeave {
  member: Member
  reason: LeaveReason
}

/** Injectable time, so tests can drive failure detection without waiting. */
export interface Clock {
  now(): number
}

export interface Timers {
  setInterval(callback: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

export const systemClock: Clock = { now: () => Date.now() }

export const systemTimers: Timers = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
}
