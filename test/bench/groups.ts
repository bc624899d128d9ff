/**
 * `npm run bench -- groups [--records N]`: consumer groups against three peer processes on
 * loopback (fs storage, temp dirs), a topic of 48 partitions × RF 3 pre-filled with N 100-byte
 * records by `tributary perf produce`; the readings start once every partition is led by its
 * preferred peer (leaders are balanced about 30 s after a topic is created, see leadersBalanced).
 * Every member is its own process (_groups-member.ts,
 * cooperative-sticky, reporting its assignment over IPC with its own timestamps):
 * 1. reference: `tributary perf consume` reads the topic with one SDK consumer, no group;
 * 2. group_consume_records_per_s: 8 members join, each pausing its partitions at the first batch;
 *    once they own all 48, the bench tells them to go: go → the last partition's last record read
 *    (by the member's clock), with the CPU cores of members, peers and others over that time;
 * 3. rebalance_join_ms: a 9th member starts to join → every partition owned exactly once again,
 *    the newcomer owning its share (target ≤ 500 ms);
 * 4. rebalance_crash_ms: a dynamic member is SIGKILLed → its partitions owned again by the others
 *    (target ≤ its session timeout + 500 ms);
 * 5. static_restart_rebalances: the static member is stopped and started again with the same
 *    groupInstanceId within its session; the group's generation is read before and once a full
 *    session has passed since the stop (target 0).
 * Writes bench-results/groups.json.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { Tributary } from '@tributary/client'
import { waitFor } from '../helpers/peer-process.ts'
import { coresLine, stepCpu } from './_client-cpu.ts'
import { tributary } from './_groups-cli.ts'
import { type Member, Members } from './_groups-members.ts'
import { MeshCluster } from './_mesh-cluster.ts'
import { printTable, writeResults } from './report.ts'

const TOPIC = 'bench-groups'
const GROUP = 'bench-billing'
const PARTITIONS = 48
const REPLICATION_FACTOR = 3
const RECORD_SIZE = 100
const MEMBERS = 8
/** Dynamic members' session: the coordinator's minimum (Kafka's group.min.session.timeout.ms). */
const SESSION_MS = 6_000
/** The static member's: room for a process restart (tsx start-up, connect) on a shared machine. */
const STATIC_SESSION_MS = 15_000
const STATIC_ID = 'static-1'
/** Peers count as quiet (replication caught up) below this many cores over a window. */
const QUIET_CORES = 0.3
const QUIET_WINDOW_MS = 500
const QUIET_DEADLINE_MS = 60_000
/** Leaders are balanced one leaderImbalanceCheckIntervalMs (30 s) after creation; room for a second check. */
const BALANCE_DEADLINE_MS = 75_000
/** How long the gated group's CPU is sampled before the go. */
const IDLE_SAMPLE_MS = 2_000
const USAGE = 'usage: npm run bench -- groups [--records N] [--profile DIR]'

function parseArgs(argv: string[]): { records: number; profileDir: string | undefined } {
  const args: { records: number; profileDir: string | undefined } = { records: 4_000_000, profileDir: undefined }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value = ''] = [argv[i], argv[i + 1]]
    const n = Number(value)
    if (flag === '--records' && Number.isSafeInteger(n) && n >= PARTITIONS) args.records = n
    else if (flag === '--profile' && value !== '') args.profileDir = value
    else throw new Error(`bad argument '${flag} ${value}'; ${USAGE}`)
  }
  return args
}

function progress(msg: string): void {
  process.stderr.write(`[groups bench ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

const now = (): number => performance.timeOrigin + performance.now()
const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

/**
 * Waits (up to QUIET_DEADLINE_MS) until the peers use under QUIET_CORES over a QUIET_WINDOW_MS
 * window: after perf produce the slowest replica of each partition is still catching up (acks=all
 * needs a majority), and that replication would otherwise be billed to the consume measured next.
 */
async function peersQuiet(peerPids: number[]): Promise<string> {
  const start = now()
  // Bounded by the deadline: every turn waits a window.
  while (now() - start < QUIET_DEADLINE_MS) {
    const cpu = stepCpu(peerPids)
    const from = now()
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS))
    const cores = (cpu().peers ?? 0) / ((now() - from) / 1000)
    if (cores < QUIET_CORES) return `peers quiet (${round(cores, 2)} cores) after ${fmt(now() - start)} ms`
  }
  return `peers still busy after ${fmt(QUIET_DEADLINE_MS)} ms; measuring anyway`
}

type Admin = ReturnType<Tributary['admin']>

/** The bench topic's partitions with their leaders, epochs and voters. */
async function topicPartitions(admin: Admin) {
  const [topic] = await admin.describeTopics({ topics: [TOPIC] })
  return topic?.partitions ?? []
}

/**
 * Waits until every partition is led by its preferred peer (its first voter). About 30 s after a
 * topic is created (`leaderImbalanceCheckIntervalMs`), each leader that is not the preferred one
 * hands over to it, once: a moved partition's consumers then wait for the new leader, up to
 * LEADER_MOVED_MAX_BACKOFF_MS and more. The readings below are of the steady state that follows,
 * as a Kafka benchmark runs on balanced brokers; how many moved, and when, is printed.
 */
async function leadersBalanced(admin: Admin): Promise<string> {
  const start = now()
  let unbalanced: number[] = []
  // Bounded by the deadline: every turn waits a window.
  while (now() - start < BALANCE_DEADLINE_MS) {
    const partitions = await topicPartitions(admin)
    unbalanced = partitions.filter((p) => p.leader === '' || p.leader !== p.voters[0]).map((p) => p.partition)
    if (partitions.length > 0 && unbalanced.length === 0) {
      const moved = partitions.filter((p) => p.leaderEpoch > 1).length
      return `leaders balanced after ${fmt(now() - start)} ms (${moved} of ${PARTITIONS} partitions in a later epoch than their first)`
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return `${unbalanced.length} partitions still not led by their preferred peer after ${fmt(BALANCE_DEADLINE_MS)} ms; measuring anyway`
}

/** Waits until the live members own every partition once and `ready` holds; the time they got there. */
function settled(members: Members, what: string, timeoutMs: number, ready: () => boolean = () => true) {
  return waitFor(
    () => {
      const since = members.ownedOnceSince(PARTITIONS)
      return since !== undefined && ready() ? since : undefined
    },
    what,
    timeoutMs,
  )
}

/** Group consume: until each partition's end was read by someone; the rate from the first record read. */
async function groupConsume(
  members: Members,
  ends: Map<number, number>,
  total: number,
  peerPids: number[],
  profiling: boolean,
): Promise<{ recordsPerS: number; seconds: number; cores: Record<string, number>; coresText: string }> {
  const spawned: Member[] = []
  for (let i = 1; i <= MEMBERS; i++) spawned.push(members.spawn(`m${i}`, { gated: true }))
  await settled(members, `${MEMBERS} gated members to own the ${PARTITIONS} partitions`, 120_000, () =>
    spawned.every((m) => m.owned.length > 0),
  )
  const memberPids = spawned.map((m) => m.proc.pid!)
  // What the gated group costs before the go (heartbeats, timers, gossip, start-up work still running):
  // a group that idles dear pays it again for every second it reads.
  const idle = stepCpu([...peerPids, ...memberPids])
  const idleMembers = stepCpu(memberPids)
  const idleStart = now()
  await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS))
  const idleSeconds = (now() - idleStart) / 1000
  const [idleAll, idleMine] = [idle(), idleMembers()]
  if (idleAll.peers !== undefined && idleMine.peers !== undefined) {
    progress(
      `gated group before the go, over ${idleSeconds.toFixed(1)} s: ${MEMBERS} members ${round(idleMine.peers / idleSeconds, 2)} cores, ` +
        `3 peers ${round((idleAll.peers - idleMine.peers) / idleSeconds, 2)}`,
    )
  }
  progress(await peersQuiet(peerPids))
  const both = stepCpu([...peerPids, ...memberPids])
  const membersOnly = stepCpu(memberPids)
  const started = now()
  const goMonotonicUs = process.hrtime.bigint() / 1000n
  for (const m of spawned) members.go(m)
  /** When each partition was read to its end, and by whom (the latest, if it moved); undefined until all were. */
  const finishes = (): Array<{ partition: number; member: string; at: number }> | undefined => {
    const out: Array<{ partition: number; member: string; at: number }> = []
    for (const [partition, end] of ends) {
      let last: { partition: number; member: string; at: number } | undefined
      for (const m of spawned) {
        const r = m.read.get(partition)
        if (r !== undefined && r.next >= end && (last === undefined || r.at > last.at))
          last = { partition, member: m.name, at: r.at }
      }
      if (last === undefined) return undefined
      out.push(last)
    }
    return out
  }
  const doneAt = (): number | undefined => {
    const all = finishes()
    return all === undefined ? undefined : Math.max(0, ...all.map((f) => f.at))
  }
  const status = (): string => {
    const short = [...ends].flatMap(([partition, end]) => {
      const next = Math.max(0, ...spawned.map((m) => m.read.get(partition)?.next ?? 0))
      return next >= end ? [] : [`${partition}: ${next}/${end}`]
    })
    const owned = spawned.map((m) => `${m.name} owns ${m.owned.length}`).join(', ')
    const out = spawned.map((m) => `${m.name}: ${m.output().slice(-300)}`).join('\n')
    return `partitions not read to their end: ${short.join(', ')}; ${owned}\n${out}`
  }
  const done = await waitFor(
    () => {
      members.check()
      return doneAt()
    },
    `${MEMBERS} members to read all ${total} records`,
    60_000 + total / 5,
  ).catch((err: Error) => {
    throw new Error(`${err.message} (${status()})`)
  })
  const wall = (now() - started) / 1000
  // CPU profiles time their samples on the same monotonic clock: this picks the consume out of them.
  if (profiling) progress(`profile window (monotonic µs): ${goMonotonicUs} ${process.hrtime.bigint() / 1000n}`)
  const all = both()
  const mine = membersOnly()
  const seconds = (done - started) / 1000
  const perS = (s: number | undefined): number | undefined => (s === undefined ? undefined : round(s / wall, 2))
  const m = perS(mine.peers)
  const p = all.peers === undefined || mine.peers === undefined ? undefined : perS(all.peers - mine.peers)
  const o = perS(all.others)
  const cores: Record<string, number> = {}
  if (m !== undefined) cores.group_consume_members_cores = m
  if (p !== undefined) cores.group_consume_peers_cores = p
  if (o !== undefined) cores.group_consume_others_cores = o
  // When each partition was read to its end: one straggler (a stalled fetch) shows here.
  const finished = (finishes() ?? []).sort((a, b) => a.at - b.at)
  const after = (at: number): string => `${((at - started) / 1000).toFixed(2)} s`
  const median = finished[Math.floor(finished.length / 2)]?.at ?? started
  progress(
    `partitions read to their end: median ${after(median)} after the go; last ` +
      finished
        .slice(-3)
        .reverse()
        .map((f) => `p${f.partition} (${f.member}) ${after(f.at)}`)
        .join(', '),
  )
  const sum = (pick: (f: Member['fetched']) => number): number => spawned.reduce((n, m) => n + pick(m.fetched), 0)
  const fetches = sum((f) => f.fetches)
  progress(
    `members' fetches: ${fmt(fetches)}, ${fmt(sum((f) => f.bytes) / Math.max(1, fetches))} bytes each on average; ` +
      `${fmt(sum((f) => f.partitions))} partitions asked, ${fmt(sum((f) => f.withData))} answered with data`,
  )
  // CPU per record (core-seconds / records) is what a shared machine's load does not move much.
  const perRecord = (s: number | undefined): number | undefined =>
    s === undefined ? undefined : round((s / total) * 1e6, 2)
  const mu = perRecord(mine.peers)
  const pu = all.peers === undefined || mine.peers === undefined ? undefined : perRecord(all.peers - mine.peers)
  if (mu !== undefined) cores.group_consume_members_us_per_record = mu
  if (pu !== undefined) cores.group_consume_peers_us_per_record = pu
  // The same group with everything read: what eight members and their peers cost doing nothing
  // (heartbeats, commits, long polls, timers), a share of every second the group reads.
  const idleAfter = stepCpu([...peerPids, ...memberPids])
  const idleAfterMembers = stepCpu(memberPids)
  const idleAfterStart = now()
  const idleMonotonicUs = process.hrtime.bigint() / 1000n
  await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS))
  const idleAfterSeconds = (now() - idleAfterStart) / 1000
  if (profiling) progress(`idle profile window (monotonic µs): ${idleMonotonicUs} ${process.hrtime.bigint() / 1000n}`)
  const [afterAll, afterMine] = [idleAfter(), idleAfterMembers()]
  if (afterAll.peers !== undefined && afterMine.peers !== undefined) {
    const idleM = round(afterMine.peers / idleAfterSeconds, 2)
    const idleP = round((afterAll.peers - afterMine.peers) / idleAfterSeconds, 2)
    cores.group_idle_members_cores = idleM
    cores.group_idle_peers_cores = idleP
    progress(
      `idle group, everything read, over ${idleAfterSeconds.toFixed(1)} s: ${MEMBERS} members ${idleM} cores, 3 peers ${idleP}`,
    )
  }
  const coresText =
    `CPU cores over ${wall.toFixed(1)} s from the go: ${MEMBERS} members ${m ?? '?'}, 3 peers ${p ?? '?'}, others ${o ?? '?'}; ` +
    `CPU µs per record: members ${mu ?? '?'}, peers ${pu ?? '?'}`
  return { recordsPerS: total / seconds, seconds, cores, coresText }
}

export default async function groupsBench(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const root = await mkdtemp(join(os.tmpdir(), 'tributary-groups-bench-'))
  let cluster: MeshCluster | undefined
  let client: Tributary | undefined
  let members: Members | undefined
  try {
    cluster = await MeshCluster.start(root, REPLICATION_FACTOR, args.profileDir)
    const bootstrap = cluster.peers.map((p) => p.address)
    const peer = ['--peer', bootstrap.join(',')]
    const run = { peerPids: cluster.pids }
    client = await Tributary.connect({ bootstrap, requestTimeout: 30_000 })
    const admin = client.admin()
    await admin.createTopics({
      topics: [{ topic: TOPIC, numPartitions: PARTITIONS, replicationFactor: REPLICATION_FACTOR }],
    })
    // A partition's log opens with its leader's marker, which no consumer sees: only offsets
    // past these baselines are records, and a partition that got none has nothing to read.
    const baseline = new Map<number, number>()
    for (const o of await admin.fetchTopicOffsets(TOPIC)) baseline.set(o.partition, Number(o.high))
    progress(`${TOPIC}: ${PARTITIONS} partitions × RF ${REPLICATION_FACTOR}; perf produce of ${args.records} records`)
    const budgetMs = 120_000 + args.records / 10
    const produced = await tributary(
      ['perf', 'produce', '--topic', TOPIC, '--num-records', String(args.records)].concat(
        ['--record-size', String(RECORD_SIZE), '--acks', 'all', '--json'],
        peer,
      ),
      budgetMs,
      run,
    )
    progress(`perf produce: ${fmt(JSON.parse(produced.stdout).records_per_s)} records/s`)
    progress(await leadersBalanced(admin))
    const ends = new Map<number, number>()
    for (const o of await admin.fetchTopicOffsets(TOPIC)) {
      const end = Number(o.high)
      if (end > (baseline.get(o.partition) ?? 0)) ends.set(o.partition, end)
    }
    const offsets = [...ends].reduce((sum, [p, end]) => sum + end - (baseline.get(p) ?? 0), 0)
    if (offsets < args.records)
      throw new Error(`the topic holds ${offsets} new offsets, fewer than ${args.records} records`)
    const total = args.records
    const emptyPartitions = PARTITIONS - ends.size

    progress(await peersQuiet(cluster.pids))
    const single = await tributary(
      ['perf', 'consume', '--topic', TOPIC, '--messages', String(args.records), '--json', ...peer],
      budgetMs,
      run,
    )
    const singleRate = (JSON.parse(single.stdout) as { records_per_s: number }).records_per_s
    progress(
      `perf consume (one consumer, no group): ${fmt(singleRate)} records/s; ${coresLine(single.cpu, single.seconds)}`,
    )

    members = new Members({
      bootstrap,
      groupId: GROUP,
      topic: TOPIC,
      sessionTimeoutMs: SESSION_MS,
      profileDir: args.profileDir,
    })
    const leaders = async (): Promise<Map<number, string>> =>
      new Map((await topicPartitions(admin)).map((p) => [p.partition, `${p.leader.slice(-6)}@${p.leaderEpoch}`]))
    const leadersBefore = await leaders()
    const consume = await groupConsume(members, ends, total, cluster.pids, args.profileDir !== undefined)
    // A leader elected during the read costs its partitions' consumers a metadata round and a retry.
    const moved = [...(await leaders())].filter(([p, leader]) => leadersBefore.get(p) !== leader)
    progress(
      `leaders changed while the group was running: ${moved.length}` +
        moved
          .slice(0, 6)
          .map(([p, leader]) => ` p${p} ${leadersBefore.get(p)} → ${leader}`)
          .join(','),
    )
    progress(
      `group consume: ${fmt(consume.recordsPerS)} records/s over ${consume.seconds.toFixed(2)} s; ${consume.coresText}`,
    )

    await settled(members, `${MEMBERS} members to own the ${PARTITIONS} partitions`, 60_000)
    // The 9th member is the static one: it joins here and restarts below.
    const ninth = members.spawn(`m${MEMBERS + 1}`, {
      instanceId: STATIC_ID,
      sessionTimeoutMs: STATIC_SESSION_MS,
    })
    const share = Math.floor(PARTITIONS / (MEMBERS + 1))
    const joined = await settled(members, 'the 9th member to get its share', 60_000, () => ninth.owned.length >= share)
    const joinMs = joined - ninth.joiningAt!
    progress(`join: ${joinMs.toFixed(0)} ms (the 9th member owns ${ninth.owned.length} partitions)`)

    const victim = members.live().find((m) => m !== ninth && m.owned.length > 0)
    if (victim === undefined) throw new Error('no dynamic member owns a partition')
    const lost = victim.owned.length
    const killedAt = await members.kill(victim)
    const group = members
    const recovered = await settled(group, `${victim.name}'s partitions to move`, 60_000, () =>
      group.live().some((m) => m.ownedAt > killedAt),
    )
    const crashMs = recovered - killedAt
    progress(`crash: ${crashMs.toFixed(0)} ms (${victim.name} owned ${lost} partitions; session ${SESSION_MS} ms)`)

    const staticMember = ninth
    // describeGroups: the generation without describeGroup's lag (which asks every partition's leader).
    const generation = async (): Promise<number> => (await admin.describeGroups([GROUP])).groups[0]!.generation
    const before = await generation()
    const staticOwned = staticMember.owned.join(',')
    const stoppedAt = now()
    await members.terminate(staticMember)
    const again = members.spawn(`m${MEMBERS + 1}-restarted`, {
      instanceId: STATIC_ID,
      sessionTimeoutMs: STATIC_SESSION_MS,
    })
    await settled(
      members,
      'the restarted static member to own its partitions again',
      STATIC_SESSION_MS,
      () => again.owned.length > 0,
    )
    const restartMs = again.ownedAt - stoppedAt
    // Observe a whole session from the stop: had the coordinator expired the old instance, it would have by now.
    await waitFor(
      () => now() > stoppedAt + STATIC_SESSION_MS + 1_000,
      'a static session to pass',
      STATIC_SESSION_MS * 2,
    )
    members.check()
    const after = await generation()
    const rebalances = after - before
    const samePartitions = again.owned.join(',') === staticOwned
    progress(
      `static restart: ${rebalances} rebalances (generation ${before} → ${after}); ` +
        `back in ${restartMs.toFixed(0)} ms, ${samePartitions ? 'same' : 'different'} partitions`,
    )
    report({
      args,
      total,
      emptyPartitions,
      singleRate,
      consume,
      joinMs,
      crashMs,
      lost,
      rebalances,
      restartMs,
      samePartitions,
    })
  } finally {
    await members?.stop()
    await client?.disconnect()
    await cluster?.stop()
    await rm(root, { recursive: true, force: true })
  }
}

function report(r: {
  args: { records: number }
  total: number
  emptyPartitions: number
  singleRate: number
  consume: { recordsPerS: number; seconds: number; cores: Record<string, number>; coresText: string }
  joinMs: number
  crashMs: number
  lost: number
  rebalances: number
  restartMs: number
  samePartitions: boolean
}): void {
  const met = (ok: boolean): string => (ok ? 'met' : 'not met')
  const crashTarget = SESSION_MS + 500
  const consumeRate = r.consume.recordsPerS
  printTable(
    `groups: 3 peers, ${PARTITIONS} partitions × RF ${REPLICATION_FACTOR}, ${RECORD_SIZE}-byte values, ` +
      `${r.total.toLocaleString('en-US')} records, members in their own processes, cooperative-sticky`,
    [
      {
        metric: 'rebalance_join_ms',
        value: round(r.joinMs),
        unit: 'ms',
        reference: `target ≤ 500 (${met(r.joinMs <= 500)}); 9th member joins ${MEMBERS}`,
      },
      {
        metric: 'rebalance_crash_ms',
        value: round(r.crashMs),
        unit: 'ms',
        reference: `target ≤ session ${SESSION_MS} + 500 (${met(r.crashMs <= crashTarget)}); ${r.lost} partitions moved`,
      },
      {
        metric: 'static_restart_rebalances',
        value: r.rebalances,
        unit: 'count',
        reference: `target 0 (${met(r.rebalances === 0)}); back in ${fmt(r.restartMs)} ms, session ${STATIC_SESSION_MS}`,
      },
      {
        metric: 'group_consume_records_per_s',
        value: round(consumeRate),
        unit: 'rec/s',
        reference: `target ≥ 1,000,000 (${met(consumeRate >= 1_000_000)}); ${MEMBERS} members`,
      },
      {
        metric: 'single_consume_records_per_s',
        value: round(r.singleRate),
        unit: 'rec/s',
        reference: 'same run: one SDK consumer, no group (tributary perf consume)',
      },
    ],
  )
  console.log(r.consume.coresText)
  writeResults('groups', {
    rebalance_join_ms: round(r.joinMs),
    rebalance_crash_ms: round(r.crashMs),
    static_restart_rebalances: r.rebalances,
    group_consume_records_per_s: round(consumeRate),
    single_consume_records_per_s: round(r.singleRate),
    join_target_met: r.joinMs <= 500,
    crash_target_met: r.crashMs <= crashTarget,
    static_target_met: r.rebalances === 0,
    consume_target_met: consumeRate >= 1_000_000,
    group_consume_seconds: round(r.consume.seconds, 2),
    static_restart_ms: round(r.restartMs),
    static_same_partitions: r.samePartitions,
    crash_partitions_moved: r.lost,
    session_timeout_ms: SESSION_MS,
    static_session_timeout_ms: STATIC_SESSION_MS,
    members: MEMBERS,
    records: r.total,
    empty_partitions: r.emptyPartitions,
    partitions: PARTITIONS,
    replication_factor: REPLICATION_FACTOR,
    record_size: RECORD_SIZE,
    ...r.consume.cores,
  })
}
