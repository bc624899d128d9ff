/**
 * Incarnations: one number per process lifetime of a peer, larger for every restart, so that
 * others tell a restart (a fresh join) from the previous lifetime's late heartbeats and goodbye.
 *
 * Start time in ms << 20 | 20 random bits orders restarts as long as the clock does. A clock
 * stepped back (NTP at boot, a restored VM) would make a restart's incarnation smaller than the
 * one the others last saw, and they would ignore it — keeping the peer 'left' or 'dead' until
 * they forget it. So a peer with a data dir keeps its last incarnation there and takes the larger
 * of the start time and that plus one.
 */

/** Where a peer keeps its last incarnation across restarts (a file in Node). */
export interface IncarnationStore {
  /** The last incarnation saved; undefined if none (or unreadable: then start time decides). */
  load(): Promise<bigint | undefined>
  save(incarnation: bigint): Promise<void>
}

let lastInProcess = 0n

/** Start time in ms << 20 | 20 random bits; strictly increasing within this process. */
export function timeIncarnation(nowMs: number = Date.now()): bigint {
  const candidate = (BigInt(Math.max(1, Math.floor(nowMs))) << 20n) | BigInt(Math.floor(Math.random() * 0x10_0000))
  lastInProcess = candidate > lastInProcess ? candidate : lastInProcess + 1n
  return lastInProcess
}

/** The incarnation of a lifetime starting now: above the start time and above the last one saved, which it replaces. */
export async function nextIncarnation(store: IncarnationStore | undefined, nowMs?: number): Promise<bigint> {
  let incarnation = timeIncarnation(nowMs)
  if (store === undefined) return incarnation
  const last = await store.load()
  if (last !== undefined && last >= incarnation) incarnation = last + 1n
  await store.save(incarnation)
  return incarnation
}
