/**
 * The scenario test's group members, each feeding its MemberLog in the Ledger: local ones (SDK
 * consumers in the test's process) and child ones (scenario-member.ts, in their own process,
 * reporting over stdout). A child can be SIGKILLed (`kill`: its log says crashed once its
 * output is fully read) or stopped cleanly (`terminate`: SIGTERM, it disconnects).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Consumer, Tributary } from '@tributary/client'
import type { Ledger, MemberLog } from './scenario-ledger.ts'

const script = fileURLToPath(new URL('./scenario-member.ts', import.meta.url))

export interface MemberSettings {
  groupId: string
  topic: string
  sessionTimeout: number
  groupInstanceId?: string
}

const partitionsOf = (list: Array<{ partition: number }>): number[] => list.map((tp) => tp.partition)

export class LocalMember {
  private constructor(
    readonly log: MemberLog,
    readonly consumer: Consumer,
  ) {}

  static async start(client: Tributary, ledger: Ledger, name: string, s: MemberSettings): Promise<LocalMember> {
    const log = ledger.member(name)
    const consumer = client.consumer({
      groupId: s.groupId,
      ...(s.groupInstanceId === undefined ? {} : { groupInstanceId: s.groupInstanceId }),
      sessionTimeout: s.sessionTimeout,
      heartbeatInterval: 500,
      rebalanceTimeout: 15_000,
      autoCommitInterval: 300,
      maxWaitTimeInMs: 200,
      partitionAssigners: ['cooperative-sticky'],
    })
    consumer.on('consumer.group_join', (e) => log.joined(e.payload.generation))
    consumer.on('consumer.partitions_assigned', (e) => log.assigned(partitionsOf(e.payload.partitions)))
    consumer.on('consumer.partitions_revoked', (e) => log.revoked(partitionsOf(e.payload.partitions)))
    consumer.on('consumer.partitions_lost', (e) => log.lost(partitionsOf(e.payload.partitions)))
    consumer.on('consumer.commit_offsets', (e) =>
      log.committedOffsets(e.payload.topics.map((t) => [t.partition, Number(t.offset)])),
    )
    await consumer.subscribe({ topics: [s.topic], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ partition, message }) =>
        log.processed(
          partition,
          Number(message.offset),
          message.key?.toString() ?? null,
          message.value?.toString() ?? null,
        ),
    })
    return new LocalMember(log, consumer)
  }

  /** Leaves cleanly: commits (on revoke), then LeaveGroup. */
  async leave(): Promise<void> {
    await this.consumer.disconnect()
    this.log.gone = true
  }
}

type Line =
  | { e: 'connected' | 'closed' }
  | { e: 'joined'; generation: number }
  | { e: 'assigned' | 'revoked' | 'lost'; partitions: number[] }
  | { e: 'committed'; offsets: Array<[number, number]> }
  | { e: 'processed'; partition: number; offset: number; key: string | null; value: string | null }

export class ChildMember {
  readonly proc: ChildProcess
  connected = false
  closed = false
  private stderr = ''
  /** Resolves once the process exited and its output was read to the end. */
  readonly done: Promise<void>

  constructor(
    readonly log: MemberLog,
    bootstrap: string[],
    s: MemberSettings,
    gated: boolean,
  ) {
    const args = [
      '--conditions=source',
      '--import',
      'tsx',
      script,
      bootstrap.join(','),
      s.groupId,
      s.topic,
      s.groupInstanceId ?? '-',
      String(s.sessionTimeout),
      gated ? 'gated' : 'open',
    ]
    this.proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    let pending = ''
    this.proc.stdout!.on('data', (d: Buffer) => {
      pending += d.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) if (line !== '') this.onLine(JSON.parse(line) as Line)
    })
    this.proc.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-20_000)
    })
    // 'close' comes after 'exit' once stdout and stderr ended: every line was handled.
    this.done = new Promise((resolve) => this.proc.once('close', () => resolve()))
  }

  static spawn(ledger: Ledger, name: string, bootstrap: string[], s: MemberSettings, gated = false): ChildMember {
    return new ChildMember(ledger.member(name), bootstrap, s, gated)
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null
  }

  output(): string {
    return this.stderr.slice(-3000)
  }

  /** A gated member subscribes and joins now. */
  go(): void {
    this.proc.stdin!.write('go\n')
  }

  /** SIGKILL: no commit, no LeaveGroup; the log hands its partitions over as a crash. */
  async kill(): Promise<void> {
    if (this.running) this.proc.kill('SIGKILL')
    await this.done
    if (!this.log.gone) this.log.crashed()
  }

  /** SIGTERM: the member disconnects (commits; leaves, or closes if static) and exits. */
  async terminate(): Promise<void> {
    if (this.running) this.proc.kill('SIGTERM')
    await this.done
    this.log.gone = true
  }

  private onLine(line: Line): void {
    const log = this.log
    switch (line.e) {
      case 'connected':
        this.connected = true
        break
      case 'closed':
        this.closed = true
        break
      case 'joined':
        log.joined(line.generation)
        break
      case 'assigned':
        log.assigned(line.partitions)
        break
      case 'revoked':
        log.revoked(line.partitions)
        break
      case 'lost':
        log.lost(line.partitions)
        break
      case 'committed':
        log.committedOffsets(line.offsets)
        break
      case 'processed':
        log.processed(line.partition, line.offset, line.key, line.value)
        break
    }
  }
}
