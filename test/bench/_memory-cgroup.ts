/**
 * A memory cgroup for a benchmark's process tree: this process moves into a new child of its own
 * memory cgroup with a limit, and the processes it starts afterwards are born in it. At the
 * limit the kernel reclaims the tree's page cache and hands its pages to the next writes, as on
 * a host whose memory is in use; with no limit, a log that grows takes fresh pages from free
 * memory, which on a VM that returns free memory to its host costs a fault there per page (see
 * measurePageCacheWrite). Only the cgroup v1 memory controller is handled: under cgroup v2 a
 * process cannot start a child group with controllers from a group it is itself in.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { mkdir, rmdir } from 'node:fs/promises'
import { join } from 'node:path'

const V1_MEMORY_ROOT = '/sys/fs/cgroup/memory'

export type MemoryCgroup =
  | { entered: true; dir: string; limitBytes: number; leave(): Promise<void> }
  | { entered: false; reason: string }

/** Moves this process into a new memory cgroup limited to `limitBytes`; says why not when it cannot. */
export async function enterMemoryCgroup(name: string, limitBytes: number): Promise<MemoryCgroup> {
  let own: string | undefined
  try {
    // Lines are `id:controllers:path`; v1's memory controller has its own line.
    own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .find(([, controllers]) => controllers?.split(',').includes('memory'))?.[2]
  } catch (err) {
    return { entered: false, reason: `no /proc/self/cgroup (${(err as Error).message})` }
  }
  if (own === undefined) return { entered: false, reason: 'no cgroup v1 memory controller' }
  const parent = join(V1_MEMORY_ROOT, own)
  const dir = join(parent, name)
  try {
    await mkdir(dir)
    writeFileSync(join(dir, 'memory.limit_in_bytes'), String(limitBytes))
    writeFileSync(join(dir, 'cgroup.procs'), String(process.pid))
  } catch (err) {
    await rmdir(dir).catch(() => {})
    return { entered: false, reason: `cannot make ${dir} (${(err as Error).message})` }
  }
  let left = false
  return {
    entered: true,
    dir,
    limitBytes,
    async leave() {
      if (left) return
      left = true
      writeFileSync(join(parent, 'cgroup.procs'), String(process.pid))
      // Charged page cache does not keep a v1 group from going; its exited processes may for a moment.
      for (let attempt = 0; ; attempt++) {
        try {
          await rmdir(dir)
          return
        } catch (err) {
          if (attempt >= 20) throw err
          await new Promise((r) => setTimeout(r, 50))
        }
      }
    },
  }
}
