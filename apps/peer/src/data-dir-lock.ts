import { mkdir, open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'

export class AlreadyRunningError extends Error {
  static override name = 'AlreadyRunningError'
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`a peer is already running on data dir ${dataDir} (pid ${pid}); stop it first or pick another --data`)
    this.name = 'AlreadyRunningError'
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * One peer per data directory: a `peer.lock` file created exclusively, holding the pid. A
 * lock left by a process that no longer exists (killed with SIGKILL) is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true })
  const path = join(dataDir, 'peer.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx')
      await handle.writeFile(`${process.pid}\n`)
      await handle.close()
      return () => rm(path, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim())
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
        throw new AlreadyRunningError(dataDir, pid)
      await rm(path, { force: true })
    }
  }
  throw new Error(`could not lock data dir ${dataDir}`)
}
