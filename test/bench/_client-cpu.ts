/**
 * CPU seconds used during one step of the client benchmark, split by who used them: the
 * `tributary` CLI process the step ran (a child of this process, counted once it has exited and
 * been reaped, from this process's cutime/cstime), the peer processes, and everything else on the
 * machine (the noise another job adds to a shared machine). Linux /proc only; undefined elsewhere.
 */
import { readFileSync } from 'node:fs'

export interface StepCpu {
  /** The CLI process (and any other child of this process that exited meanwhile). */
  cli: number | undefined
  peers: number | undefined
  others: number | undefined
}

/** USER_HZ: 100 on every Linux architecture Node supports. */
const TICKS_PER_S = 100

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** Fields of /proc/<pid>/stat after the command name: [0] is state, so utime is [11], cutime [13]. */
function statFields(pid: number | 'self'): number[] | undefined {
  const stat = read(`/proc/${pid}/stat`)
  if (stat === undefined) return undefined
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number)
}

interface Sample {
  /** This process's own user + system ticks. */
  self: number
  /** Its reaped children's. */
  children: number
  peers: number
  machine: number
}

function sample(peerPids: readonly number[]): Sample | undefined {
  const self = statFields('self')
  const first = read('/proc/stat')?.split('\n')[0]
  if (self === undefined || first === undefined) return undefined
  let peers = 0
  for (const pid of peerPids) {
    const f = statFields(pid)
    if (f === undefined) return undefined
    peers += f[11]! + f[12]!
  }
  const [user, nice, system, , , irq, softirq, steal] = first.trim().split(/\s+/).slice(1).map(Number)
  const machine = user! + nice! + system! + irq! + softirq! + (steal ?? 0)
  return { self: self[11]! + self[12]!, children: self[13]! + self[14]!, peers, machine }
}

/** Starts measuring; the returned function gives the CPU seconds used since (call it after the CLI exited). */
export function stepCpu(peerPids: readonly number[]): () => StepCpu {
  const before = sample(peerPids)
  return () => {
    const after = sample(peerPids)
    if (before === undefined || after === undefined) return { cli: undefined, peers: undefined, others: undefined }
    const d = (k: keyof Sample): number => (after[k] - before[k]) / TICKS_PER_S
    const others = Math.max(0, d('machine') - d('self') - d('children') - d('peers'))
    return { cli: d('children'), peers: d('peers'), others }
  }
}

/** "CPU cores: CLI 0.9, 3 peers 1.1, others 0.4" over `seconds` of wall time. */
export function coresLine(cpu: StepCpu, seconds: number): string {
  const perS = (s: number | undefined): string => (s === undefined ? '?' : (s / seconds).toFixed(2))
  return `CPU cores: CLI ${perS(cpu.cli)}, 3 peers ${perS(cpu.peers)}, others ${perS(cpu.others)}`
}
