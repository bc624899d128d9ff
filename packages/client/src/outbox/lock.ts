/**
 * One producer per outbox at a time: two delivering the same outbox would both seal its records
 * and race on its rows. Within a JavaScript realm a set of open names says so; across tabs the
 * Web Locks API does (an exclusive lock per outbox, held until close). Where Web Locks are
 * missing (Node), the realm's set is the only guard, which is all a memory store needs.
 */
import { OutboxInUseError } from './errors.js'

const openHere = new Set<string>()

interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable: boolean },
    callback: (lock: unknown) => Promise<void> | undefined,
  ): Promise<unknown>
}

export interface HeldLock {
  release(): Promise<void>
}

export async function lockOutbox(name: string): Promise<HeldLock> {
  if (openHere.has(name)) {
    throw new OutboxInUseError(`outbox '${name}' is already open here; close that producer first`)
  }
  openHere.add(name)
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks
  if (locks === undefined) {
    return {
      release: async () => {
        openHere.delete(name)
      },
    }
  }
  let release: () => void = () => {}
  let granted: (ok: boolean) => void = () => {}
  const decided = new Promise<boolean>((resolve) => {
    granted = resolve
  })
  const held = locks.request(`tributary-outbox:${name}`, { ifAvailable: true }, (lock) => {
    if (lock === null) {
      granted(false)
      return undefined
    }
    granted(true)
    return new Promise<void>((resolve) => {
      release = resolve
    })
  })
  held.catch(() => granted(false))
  if (!(await decided)) {
    openHere.delete(name)
    throw new OutboxInUseError(`outbox '${name}' is open in another tab or window; it delivers from there`)
  }
  return {
    release: async () => {
      release()
      // Resolves once the lock is really free, so a producer opened right after close gets it.
      await held.catch(() => {})
      openHere.delete(name)
    },
  }
}
