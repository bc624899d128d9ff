/**
 * CPU seconds used during one step of the browser benchmark, split by who used them: Chromium
 * (every live descendant of this process that is not a peer process: the browser and its
 * renderer, GPU and network processes), the peer processes, this process (the Playwright driver
 * and the Node reference clients) and everything else on the machine. Linux /proc only;
 * undefined elsewhere. A Chromium process that exits during a step loses its ticks, so steps
 * keep their pages open.
 */
import { readdirSync, readFileSync } from 'node:fs'

export interface BrowserStepCpu {
  browser: number | undefined
  peers: number | undefined
  bench: number | undefined
  others: number | undefined
}

/** USER_HZ: 100 on every Linux architecture Node supports. */
const TICKS_PER_S = 100

interface Stat {
  ppid: number
  ticks: number
}

/** utime + stime and the parent of a process; fields after the command name: [1] ppid, [11] utime, [12] stime. */
function stat(pid: string): Stat | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  const f = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number)
  return { ppid: f[1]!, ticks: f[11]! + f[12]! }
}

function machineTicks(): number | undefined {
  let first: string | undefined
  try {
    first = readFileSync('/proc/stat', 'utf8').split('\n')[0]
  } catch {
    return undefined
  }
  if (first === undefined) return undefined
  const [user, nice, system, , , irq, softirq, steal] = first.trim().split(/\s+/).slice(1).map(Number)
  return user! + nice! + system! + irq! + softirq! + (steal ?? 0)
}

interface Sample {
  /** Ticks of each live descendant of this process outside the peers' trees, by pid. */
  browser: Map<number, number>
  peers: number
  self: number
  machine: number
}

function sample(peerPids: readonly number[]): Sample | undefined {
  const machine = machineTicks()
  const self = stat('self')
  if (machine === undefined || self === undefined) return undefined
  const stats = new Map<number, Stat>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const s = stat(name)
    if (s !== undefined) stats.set(Number(name), s)
  }
  const peers = new Set(peerPids)
  /** 'peer', 'browser' or undefined (not ours), following parents up to this process; bounded by the depth of the tree. */
  const owner = (pid: number): 'peer' | 'browser' | undefined => {
    let at = pid
    for (let depth = 0; depth < 64; depth++) {
      if (peers.has(at)) return 'peer'
      const parent = stats.get(at)?.ppid
      if (parent === undefined || parent <= 1) return undefined
      if (parent === process.pid) return 'browser'
      at = parent
    }
    return undefined
  }
  const browser = new Map<number, number>()
  let peerTicks = 0
  for (const [pid, s] of stats) {
    const who = owner(pid)
    if (who === 'browser') browser.set(pid, s.ticks)
    else if (who === 'peer') peerTicks += s.ticks
  }
  return { browser, peers: peerTicks, self: self.ticks, machine }
}

/** Starts measuring; the returned function gives the CPU seconds used since by each side. */
export function browserStepCpu(peerPids: readonly number[]): () => BrowserStepCpu {
  const before = sample(peerPids)
  return () => {
    const after = sample(peerPids)
    if (before === undefined || after === undefined) {
      return { browser: undefined, peers: undefined, bench: undefined, others: undefined }
    }
    let browserTicks = 0
    // A process born during the step counts from zero.
    for (const [pid, ticks] of after.browser) browserTicks += ticks - (before.browser.get(pid) ?? 0)
    const browser = browserTicks / TICKS_PER_S
    const peers = (after.peers - before.peers) / TICKS_PER_S
    const bench = (after.self - before.self) / TICKS_PER_S
    const machine = (after.machine - before.machine) / TICKS_PER_S
    return { browser, peers, bench, others: Math.max(0, machine - browser - peers - bench) }
  }
}

/** "CPU cores: browser 1.10, 3 peers 0.70, bench 0.05, others 0.10" over `seconds` of wall time. */
export function browserCoresLine(cpu: BrowserStepCpu, seconds: number): string {
  const perS = (s: number | undefined): string => (s === undefined ? '?' : (s / seconds).toFixed(2))
  return `CPU cores: browser ${perS(cpu.browser)}, 3 peers ${perS(cpu.peers)}, bench ${perS(cpu.bench)}, others ${perS(cpu.others)}`
}
