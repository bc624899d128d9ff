/**
 * The groups benchmark's member processes (_groups-member.ts): spawns them, keeps what each
 * reports over IPC (its assignment and when it changed, how far it read each partition), answers
 * "does the group own every partition exactly once, and since when", and kills them.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { endProcess, TS_NODE_ARGS } from './_mesh-cluster.ts'

const MEMBER_MAIN = fileURLToPath(new URL('./_groups-member.ts', import.meta.url))
const OUTPUT_TAIL_CHARS = 10_000

type Report =
  | { kind: 'joining'; at: number }
  | { kind: 'owned'; at: number; partitions: number[] }
  | { kind: 'read'; at: number; partition: number; next: number }
  | ({ kind: 'fetched' } & FetchStats)

/** A member's fetches since the go: answered, record bytes carried, partitions answered with data, partitions asked. */
export interface FetchStats {
  fetches: number
  bytes: number
  withData: number
  partitions: number
}

export interface Member {
  name: string
  proc: ChildProcess
  /** When it began to join (just before run()); undefined until then. */
  joiningAt: number | undefined
  owned: number[]
  /** When its assignment last changed. */
  ownedAt: number
  /** Per partition, the offset after the last record it read, and when. */
  read: Map<number, { next: number; at: number }>
  fetched: FetchStats
  output(): string
}

const alive = (m: Member): boolean => m.proc.exitCode === null && m.proc.signalCode === null

export interface MemberConfig {
  bootstrap: string[]
  groupId: string
  topic: string
  sessionTimeoutMs: number
  /** Members write a .cpuprofile here when they exit (SIGTERM); unset: no profiling. */
  profileDir?: string | undefined
}

export class Members {
  readonly all: Member[] = []

  constructor(private readonly config: MemberConfig) {}

  /** A static member (instanceId) may have its own, longer session timeout; a gated one reads nothing until go(). */
  spawn(name: string, options: { instanceId?: string; sessionTimeoutMs?: number; gated?: boolean } = {}): Member {
    const { bootstrap, groupId, topic } = this.config
    const session = String(options.sessionTimeoutMs ?? this.config.sessionTimeoutMs)
    const gate = options.gated === true ? 'gated' : 'open'
    const args = [bootstrap.join(','), groupId, topic, options.instanceId ?? '-', session, gate]
    const profiling =
      this.config.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', this.config.profileDir]
    const proc = spawn(process.execPath, [...profiling, ...TS_NODE_ARGS, MEMBER_MAIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    let output = ''
    const keep = (d: Buffer): void => {
      output = (output + d.toString()).slice(-OUTPUT_TAIL_CHARS)
    }
    proc.stdout?.on('data', keep)
    proc.stderr?.on('data', keep)
    const member: Member = {
      name,
      proc,
      joiningAt: undefined,
      owned: [],
      ownedAt: 0,
      read: new Map(),
      fetched: { fetches: 0, bytes: 0, withData: 0, partitions: 0 },
      output: () => output,
    }
    proc.on('message', (msg: Report) => {
      if (msg.kind === 'joining') member.joiningAt = msg.at
      else if (msg.kind === 'owned') {
        member.owned = msg.partitions
        member.ownedAt = msg.at
      } else if (msg.kind === 'read') {
        const before = member.read.get(msg.partition)
        if (before === undefined || msg.next > before.next) member.read.set(msg.partition, msg)
      } else if (msg.kind === 'fetched') {
        const { fetches, bytes, withData, partitions } = msg
        member.fetched = { fetches, bytes, withData, partitions }
      }
    })
    this.all.push(member)
    return member
  }

  /** Opens a gated member's gate: it resumes its partitions and reads. */
  go(member: Member): void {
    member.proc.send({ kind: 'go' })
  }

  live(): Member[] {
    return this.all.filter(alive)
  }

  /** Throws with its output if a member that should run has exited. */
  check(): void {
    for (const m of this.all) {
      if (!alive(m) && !m.proc.killed) {
        throw new Error(
          `member ${m.name} exited with ${m.proc.exitCode ?? m.proc.signalCode}: ${m.output().slice(-2000)}`,
        )
      }
    }
  }

  /**
   * If the live members own each of `partitions` partitions exactly once (as they last
   * reported), the time the last of them changed its assignment; else undefined.
   */
  ownedOnceSince(partitions: number): number | undefined {
    this.check()
    const owners = new Array<number>(partitions).fill(0)
    let since = 0
    for (const m of this.live()) {
      for (const p of m.owned) owners[p] = (owners[p] ?? 0) + 1
      since = Math.max(since, m.ownedAt)
    }
    return owners.every((n) => n === 1) ? since : undefined
  }

  /** SIGKILLs a member; resolves once it exited, with the time of the signal. */
  async kill(member: Member): Promise<number> {
    const exited = new Promise<void>((resolveExit) => member.proc.once('exit', () => resolveExit()))
    const at = performance.timeOrigin + performance.now()
    member.proc.kill('SIGKILL')
    await exited
    return at
  }

  /** SIGTERMs a member (it disconnects; a static one keeps its membership) and waits for its exit. */
  async terminate(member: Member): Promise<void> {
    await endProcess(member.proc, 'SIGTERM', 10_000)
  }

  /** Ends every member still running (SIGTERM, SIGKILL after a grace period). Safe to call twice. */
  async stop(): Promise<void> {
    await Promise.all(this.all.map((m) => endProcess(m.proc, 'SIGTERM', 10_000)))
  }
}
