/**
 * One writer per partition across tabs. The engine serializes the calls of one open log, but
 * two tabs (or two logs in one tab) opening the same partition would interleave appends and
 * each believe in its own log end. A Web Lock named after the database and partition is held
 * while the store is open; the browser releases it when the tab goes away, so a reload never
 * finds a stale lock.
 */
export interface PartitionLock {
  /** Resolves once the browser has released the lock, so a reopen right after can take it. */
  release(): Promise<void>
}

type LocksApi = Pick<LockManager, 'request'>

/**
 * Takes the partition's lock if it is free; returns undefined if another context holds it.
 * Where there is no Web Locks API (Node with fake-indexeddb) there is no other context
 * sharing the database, and the lock is a no-op.
 */
export function lockPartition(dbName: string, partitionKey: string): Promise<PartitionLock | undefined> {
  const locks = (globalThis as { navigator?: { locks?: LocksApi } }).navigator?.locks
  if (locks === undefined) return Promise.resolve({ release: () => Promise.resolve() })
  const name = `tributary-idb:${dbName}:${partitionKey}`
  return new Promise((resolve, reject) => {
    let letGo = (): void => {}
    const held = new Promise<void>((done) => {
      letGo = done
    })
    const request = locks.request(name, { ifAvailable: true }, async (lock) => {
      if (lock === null) {
        resolve(undefined)
        return
      }
      resolve({
        release: () => {
          letGo()
          return request.then(
            () => {},
            () => {},
          )
        },
      })
      await held
    })
    request.catch(reject)
  })
}
