/**
 * Consumer groups against real `tributary peer start` processes, as one story (issue 6, §2): a
 * topic of 6 partitions (RF 3) on 4 peers gets keyed, numbered records from a background
 * producer throughout, while its group grows 1 → 3 → 8 members (2 idle), three leave cleanly, a
 * member in its own process is SIGKILLed, a new one joins, the peer coordinating the group is
 * SIGKILLed, and a static member restarts within its session. Then the producer stops and:
 * - every record produced was processed, and no offset of any partition was skipped;
 * - a record was processed twice only after a hand-over without a commit, and only if it came
 *   after that member's last commit: the killed member's partitions resume exactly where its
 *   last reported commit says, clean hand-overs repeat nothing (scenario-ledger.ts);
 * - the static restart moved no generation and no other member rebalanced;
 * - describe's lag is log end − committed offset, per partition, with a known backlog.
 * The members in the test's process and in their own report the same facts (scenario-members.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type GroupDescription, Tributary } from '@tributary/client'
import { coordinatorPartitionFor } from '@tributary/groups'
import { afterAll, describe, expect, it } from 'vitest'
import { health, type PeerProcess, startPeerProcess, stopAll, waitFor } from '../helpers/peer-process.ts'
import { offsetsLeader, readOffsets } from './scenario-cluster.ts'
import { Ledger, type MemberLog } from './scenario-ledger.ts'
import { ChildMember, LocalMember, type MemberSettings } from './scenario-members.ts'
import { BackgroundProducer, partitionOf } from './scenario-producer.ts'

const GROUP = 'scenario'
const TOPIC = 'scenario-orders'
const PARTITIONS = 6
const ALL = Array.from({ length: PARTITIONS }, (_, p) => p)
/** Dynamic members: the coordinator's minimum session (Kafka's group.min.session.timeout.ms). */
const SESSION_MS = 6_000
/** The static member's: its restart (a join, the process being started already) fits well inside. */
const STATIC_SESSION_MS = 8_000
/** Waits for a group to settle: a rebalance, or a session expiring first, on a loaded machine. */
const SETTLE_MS = 60_000

const dynamic: MemberSettings = { groupId: GROUP, topic: TOPIC, sessionTimeout: SESSION_MS }
const staticSettings: MemberSettings = { ...dynamic, sessionTimeout: STATIC_SESSION_MS, groupInstanceId: 'static-1' }

let root: string | undefined
const peers: PeerProcess[] = []
const children: ChildMember[] = []
const clients: Tributary[] = []
let producer: BackgroundProducer | undefined
let sampler: ReturnType<typeof setInterval> | undefined

afterAll(async () => {
  clearInterval(sampler)
  await Promise.allSettled(children.map((c) => c.kill()))
  await producer?.stop().catch(() => {})
  await Promise.allSettled(clients.map((c) => c.disconnect()))
  await stopAll('SIGKILL')
  if (root !== undefined) await rm(root, { recursive: true, force: true })
}, 60_000)

const sorted = (xs: Iterable<number>): number[] => [...xs].sort((a, b) => a - b)
const alive = (): PeerProcess[] => peers.filter((p) => p.proc.exitCode === null && p.proc.signalCode === null)

describe('consumer groups > the scenario against peer processes', () => {
  it('grows, shrinks, survives a crash, a coordinator kill and a static restart, with nothing skipped', async () => {
    root = await mkdtemp(join(tmpdir(), 'tributary-groups-scenario-'))
    const ledger = new Ledger()
    const state = (): string =>
      [
        `phase ${ledger.phase}`,
        ...ledger.live().map((m) => `${m.name}: owns [${sorted(m.owned)}], processed ${m.processedCount}`),
        ...children.map((c) => `${c.log.name} stderr: ${c.output()}`),
      ].join('\n')
    const until = async <T>(
      fn: () => Promise<T | undefined | false> | T | undefined | false,
      what: string,
      timeoutMs: number,
      detail: () => string = () => '',
    ): Promise<T> => {
      try {
        return await waitFor(fn, what, timeoutMs)
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${detail()}\n${state()}`)
      }
    }

    // ---- 1. Four peers, the topic, the background producer.
    const seed = await startPeerProcess(join(root, 'p0'))
    peers.push(seed)
    peers.push(
      ...(await Promise.all(
        [1, 2, 3].map((i) => startPeerProcess(join(root!, `p${i}`), { bootstrap: [seed.address] })),
      )),
    )
    for (const peer of peers)
      await until(async () => (await health(peer)).peers === 4, `${peer.dataDir} to see 4 peers`, 30_000)
    const bootstrap = (): string[] => alive().map((p) => p.address)
    const client = await Tributary.connect({ bootstrap: bootstrap(), requestTimeout: 10_000 })
    clients.push(client)
    const members = await Tributary.connect({ bootstrap: bootstrap(), requestTimeout: 10_000 })
    clients.push(members)
    const admin = client.admin()
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS, replicationFactor: 3 }] })
    await until(
      async () => {
        const meta = await admin.fetchTopicMetadata({ topics: [TOPIC] })
        return meta.topics[0]?.partitions.every((p) => p.leader !== '')
      },
      'a leader for every partition',
      30_000,
    )
    producer = new BackgroundProducer(client, TOPIC, PARTITIONS)
    const bg = producer
    sampler = setInterval(() => ledger.sample(), 20)

    const describeGroup = () => admin.describeGroup(GROUP)
    /**
     * Waits until `expected` are the group's members, every partition owned once and spread evenly
     * (cooperative-sticky gets there over more than one generation: a partition is revoked in one,
     * assigned in the next), their own events agreeing with describe.
     */
    const settled = async (expected: MemberLog[], what: string): Promise<GroupDescription> =>
      until(
        async () => {
          const owners = ledger.owners()
          if (!ALL.every((p) => owners.get(p)?.length === 1)) return undefined
          if (expected.some((m) => m.gone)) return undefined
          const sizes = expected.map((m) => m.owned.size)
          if (Math.max(...sizes) - Math.min(...sizes) > 1) return undefined
          // A member started but not joined yet (a gated one) owns nothing.
          if (ledger.live().some((m) => !expected.includes(m) && m.owned.size > 0)) return undefined
          const d = await describeGroup()
          if (d.state !== 'Stable' || d.members.length !== expected.length) return undefined
          const described = d.members
            .map((m) => sorted(m.assignment.find((a) => a.topic === TOPIC)?.partitions ?? []).join(','))
            .sort()
          const seen = expected.map((m) => sorted(m.owned).join(',')).sort()
          return described.join('|') === seen.join('|') ? d : undefined
        },
        what,
        SETTLE_MS,
      )
    const noUnexplainedRepeats = (): void => {
      const { unexplained } = ledger.repeats()
      expect(unexplained.slice(0, 10), 'records processed again after a clean hand-over').toEqual([])
      expect(ledger.unexplainedOverlaps().slice(0, 10), 'partitions with two owners').toEqual([])
    }

    // ---- 2. One member owns all 6; three share them 2-2-2; eight: six own one each, two idle.
    const c1 = await LocalMember.start(members, ledger, 'c1', dynamic)
    const one = await settled([c1.log], 'c1 to own every partition')
    expect(one.members[0]!.assignment).toEqual([{ topic: TOPIC, partitions: ALL }])
    expect(sorted(c1.log.owned)).toEqual(ALL)

    const s = ChildMember.spawn(ledger, 's', bootstrap(), staticSettings)
    const k = ChildMember.spawn(ledger, 'k', bootstrap(), dynamic)
    children.push(s, k)
    await settled([c1.log, s.log, k.log], 'three members 2-2-2')
    for (const m of [c1.log, s.log, k.log]) expect(m.owned.size).toBe(2)

    const locals = [c1]
    for (const name of ['c4', 'c5', 'c6', 'c7', 'c8'])
      locals.push(await LocalMember.start(members, ledger, name, dynamic))
    const eight = [s.log, k.log, ...locals.map((l) => l.log)]
    const grown = await settled(eight, 'eight members, six owning one partition each')
    expect(grown.members.map((m) => m.assignment.flatMap((a) => a.partitions).length).sort()).toEqual([
      0, 0, 1, 1, 1, 1, 1, 1,
    ])
    expect(eight.map((m) => m.owned.size).sort()).toEqual([0, 0, 1, 1, 1, 1, 1, 1])
    noUnexplainedRepeats()

    // ---- 3. Three leave cleanly: their partitions are committed on revoke, nothing repeats.
    ledger.phase = 'leave'
    const leaving = locals.filter((l) => ['c4', 'c5', 'c6'].includes(l.log.name))
    await Promise.all(leaving.map((l) => l.leave()))
    const stayed = [c1, ...locals.filter((l) => ['c7', 'c8'].includes(l.log.name))]
    const five = [s.log, k.log, ...stayed.map((l) => l.log)]
    await settled(five, 'five members after three left')
    for (const m of five) expect(m.owned.size, `${m.name} owns a partition`).toBeGreaterThan(0)
    noUnexplainedRepeats()

    // ---- 4. The member in its own process is SIGKILLed once it has read and committed.
    ledger.phase = 'crash'
    const kOwned = sorted(k.log.owned)
    await until(
      () => kOwned.every((p) => k.log.lastCommitted(p) !== undefined && k.log.lastProcessed(p) !== undefined),
      'k to process and commit on each of its partitions',
      SETTLE_MS,
    )
    await k.kill()
    const crash = ledger.handovers.filter((h) => h.kind === 'crash')
    expect(crash.map((h) => h.partition).sort()).toEqual(kOwned)
    await settled([s.log, ...stayed.map((l) => l.log)], 'k’s partitions to move after its session')
    // The next owner of each of k's partitions starts at k's last commit: not before (that was
    // committed) and, checked once the log's records are known (7.), with no record skipped
    // after k's last processed one (between them there may be only Raft control batches).
    const resumes: Array<{ partition: number; lastRead: number; resumedAt: number }> = []
    for (const h of crash) {
      const next = await until(
        () => ledger.processings.find((p) => p.partition === h.partition && p.seq > h.seq),
        `a record of partition ${h.partition} read after k died`,
        SETTLE_MS,
      )
      expect(next.offset, `partition ${h.partition} resumes at or after k's last commit`).toBeGreaterThanOrEqual(
        k.log.lastCommitted(h.partition)!,
      )
      resumes.push({ partition: h.partition, lastRead: h.to, resumedAt: next.offset })
    }
    noUnexplainedRepeats()

    // ---- 5. A new member joins; then the peer coordinating the group is killed.
    ledger.phase = 'rejoin'
    const k2 = ChildMember.spawn(ledger, 'k2', bootstrap(), dynamic)
    children.push(k2)
    const rejoined = [s.log, k2.log, ...stayed.map((l) => l.log)]
    const beforeKill = await settled(rejoined, 'k2 to join and take partitions')
    noUnexplainedRepeats()

    ledger.phase = 'failover'
    // Commits the owners were told landed (durable in __consumer_offsets) before the kill.
    const acknowledged = ledger.committed()
    const offsetsPartition = coordinatorPartitionFor(GROUP)
    const coordinator = await until(() => offsetsLeader(alive(), offsetsPartition), 'the group’s coordinator', 30_000)
    await coordinator.stop('SIGKILL')
    const successor = await until(
      async () => {
        const leader = await offsetsLeader(alive(), offsetsPartition)
        return leader !== undefined && leader !== coordinator ? leader : undefined
      },
      'a new leader of the group’s offsets partition',
      SETTLE_MS,
    )
    expect(successor.peerId).not.toBe(coordinator.peerId)
    const afterKill = await settled(rejoined, 'the group stable at the new coordinator')
    expect(afterKill.generation).toBeGreaterThanOrEqual(beforeKill.generation)
    // The new coordinator rebuilt the group's offsets from the log: no acknowledged commit went back.
    const rebuilt = await describeGroup()
    for (const [p, offset] of acknowledged) {
      const row = rebuilt.offsets.find((o) => o.partition === p)
      expect(Number(row?.offset), `partition ${p}'s commit after the failover`).toBeGreaterThanOrEqual(offset)
    }
    // It carries on: every partition reads records sent after the group settled again.
    const resumedFrom = bg.nextSeq
    await until(
      () =>
        ALL.every((p) =>
          ledger.processings.some((r) => r.partition === p && r.value !== null && Number(r.value) >= resumedFrom),
        ),
      'every partition to read records sent after the failover',
      SETTLE_MS,
    )
    noUnexplainedRepeats()

    // ---- 6. The static member restarts within its session: no rebalance anywhere.
    ledger.phase = 'static'
    const s2 = ChildMember.spawn(ledger, 's2', bootstrap(), staticSettings, true)
    children.push(s2)
    await until(() => s2.connected, 's2 to connect', 30_000)
    const before = await settled(rejoined, 'the group stable before the static restart')
    const others = [k2.log, ...stayed.map((l) => l.log)]
    const rebalancesBefore = others.map((m) => `${m.name}: ${m.rebalances()}`)
    const sOwned = sorted(s.log.owned)
    const stoppedAt = Date.now()
    await s.terminate()
    expect(s.closed).toBe(true)
    s2.go()
    const restarted = [s2.log, ...others]
    await settled(restarted, 's2 to get s’s partitions back')
    expect(sorted(s2.log.owned)).toEqual(sOwned)
    // Past the moment s's session would have expired, the group still reads, unchanged.
    await until(() => Date.now() > stoppedAt + STATIC_SESSION_MS + 1_000, 's’s old session to run out', 30_000)
    const pastExpiry = bg.nextSeq
    await until(
      () =>
        ALL.every((p) =>
          ledger.processings.some((r) => r.partition === p && r.value !== null && Number(r.value) >= pastExpiry),
        ),
      'every partition to read records sent after s’s session would have expired',
      SETTLE_MS,
    )
    const after = await settled(restarted, 'the group stable after the static restart')
    expect(after.generation).toBe(before.generation)
    expect(others.map((m) => `${m.name}: ${m.rebalances()}`)).toEqual(rebalancesBefore)
    expect(s2.log.joins).toBe(1)
    noUnexplainedRepeats()

    // ---- 7. The producer stops; everything is read; the commits catch up.
    ledger.phase = 'drain'
    await bg.stop()
    const offsets = await admin.fetchTopicOffsets(TOPIC)
    const ends = new Map(offsets.map((o) => [o.partition, Number(o.high)]))
    expect(offsets.every((o) => o.low === '0')).toBe(true)
    expect([...ends.values()].every((end) => end > 0)).toBe(true)
    // Which offsets hold records (the others are Raft's control batches, which consumers never
    // see), as a plain consumer outside the group reads them.
    const records = await readOffsets(client, TOPIC, ends)
    await until(
      () => ledger.skipped(records).size === 0,
      'every record of every partition processed',
      SETTLE_MS,
      () =>
        [...ledger.skipped(records)]
          .map(([p, missing]) => {
            const around = ledger.processings
              .filter((r) => r.partition === p && Math.abs(r.offset - missing[0]!) <= 3)
              .map((r) => `${r.member}@${r.offset}#${r.seq}/${r.phase}`)
            const hs = ledger.handovers
              .filter((h) => h.partition === p)
              .map((h) => `${h.member} ${h.kind} [${h.from}, ${h.to}] #${h.seq}/${h.phase}`)
            return `partition ${p} (end ${ends.get(p)}): ${missing.length} unread from ${missing.slice(0, 5)}; read near: ${around.join(' ')}; hand-overs: ${hs.join('; ')}`
          })
          .join('\n'),
    )
    for (const r of resumes) {
      const between = records.get(r.partition)!.filter((o) => o > r.lastRead && o < r.resumedAt)
      expect(between, `records of partition ${r.partition} between k's last read and the resume`).toEqual([])
    }
    const processedValues = new Set(ledger.processings.map((r) => Number(r.value)))
    const unread = [...bg.acked].filter((seq) => !processedValues.has(seq))
    expect(unread.slice(0, 20), 'acknowledged records never processed').toEqual([])
    expect(bg.acked.size).toBeGreaterThan(0)
    // Each key is on the partition Kafka's partitioner names, so per-key order is per-partition order.
    const misplaced = ledger.processings.filter((r) => partitionOf(r.key!, PARTITIONS) !== r.partition)
    expect(misplaced.slice(0, 5)).toEqual([])
    const drained = await until(
      async () => {
        const d = await describeGroup()
        return d.offsets.length === PARTITIONS && d.offsets.every((o) => o.lag === '0') ? d : undefined
      },
      'the commits to reach every log end',
      SETTLE_MS,
    )
    // At the log ends: where the producer left them, plus any control batch appended since (a
    // leader elected meanwhile, or the killed peer's replica replaced, opens its epoch with one).
    for (const o of drained.offsets) {
      expect(Number(o.offset), `commit of ${o.partition}`).toBeGreaterThanOrEqual(ends.get(o.partition)!)
      expect(Number(o.offset), `commit of ${o.partition}`).toBe(Number(o.logEndOffset))
    }
    const drainedAt = new Map(drained.offsets.map((o) => [o.partition, Number(o.offset)]))

    // ---- Lag: with every member stopped, a known backlog per partition shows as log end − committed.
    ledger.phase = 'lag'
    await Promise.all([...stayed.map((l) => l.leave()), k2.terminate(), s2.terminate()])
    const backlog = client.producer()
    const placed = await backlog.send({
      topic: TOPIC,
      acks: 'all',
      messages: ALL.flatMap((p) =>
        Array.from({ length: p + 1 }, (_, i) => ({ key: `backlog-${p}`, value: `backlog-${p}-${i}`, partition: p })),
      ),
    })
    await backlog.disconnect()
    const lagged = await describeGroup()
    const committed = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] })
    const highs = await admin.fetchTopicOffsets(TOPIC)
    const lastRead = new Map<number, number>()
    for (const r of ledger.processings) lastRead.set(r.partition, Math.max(lastRead.get(r.partition) ?? -1, r.offset))
    for (const p of ALL) {
      const row = lagged.offsets.find((o) => o.partition === p)!
      const high = Number(highs.find((o) => o.partition === p)!.high)
      const commit = Number(committed[0]!.partitions.find((o) => o.partition === p)!.offset)
      expect(Number(row.logEndOffset), `log end of ${p}`).toBe(high)
      expect(Number(row.offset), `committed offset of ${p}`).toBe(commit)
      // Past its last record read (and any control batch after it).
      expect(commit, `partition ${p} committed after its last record read`).toBeGreaterThan(lastRead.get(p)!)
      expect(commit).toBe(drainedAt.get(p))
      expect(Number(row.lag), `lag of ${p}`).toBe(high - commit)
      // The backlog's p + 1 records are all in the lag, and nothing else is but control records:
      // a leader elected between the drain and the backlog (preferred-leader balancing runs every
      // 30 s) opens its epoch with a control batch, one more offset (seen once in a full run).
      const sent = placed.filter((m) => m.partition === p)
      expect(sent.reduce((n, m) => n + m.recordCount, 0)).toBe(p + 1)
      const first = Math.min(...sent.map((m) => Number(m.baseOffset)))
      expect(first, `the backlog of ${p} lands after the commit`).toBeGreaterThanOrEqual(commit)
      expect(Number(row.lag), `lag of ${p}`).toBeGreaterThanOrEqual(p + 1)
      expect(high, `the backlog of ${p} is below the log end`).toBeGreaterThanOrEqual(first + p + 1)
    }
    // Read from each commit on: the backlog's records are the only records there (anything else
    // in the lag is a control batch, which consumers never see), each exactly once.
    const afterCommit = new Map<number, Array<{ offset: number; value: string }>>(ALL.map((p) => [p, []]))
    const reader = client.consumer({ maxWaitTimeInMs: 100 })
    reader.assign(
      ALL.map((p) => ({
        topic: TOPIC,
        partition: p,
        offset: String(committed[0]!.partitions.find((o) => o.partition === p)!.offset),
      })),
    )
    await reader.run({
      eachMessage: async ({ partition, message }) => {
        afterCommit.get(partition)!.push({ offset: Number(message.offset), value: message.value!.toString() })
      },
    })
    const lastOfBacklog = (p: number): number =>
      Math.max(...placed.filter((m) => m.partition === p).map((m) => Number(m.baseOffset) + m.recordCount - 1))
    await until(
      async () => ALL.every((p) => afterCommit.get(p)!.some((r) => r.offset === lastOfBacklog(p))) || undefined,
      'a plain consumer to read every backlog from the commits',
      SETTLE_MS,
    )
    await reader.disconnect()
    for (const p of ALL) {
      expect(
        afterCommit.get(p)!.map((r) => r.value),
        `the records after the commit of ${p}`,
      ).toEqual(Array.from({ length: p + 1 }, (_, i) => `backlog-${p}-${i}`))
    }

    // ---- The whole story: nothing repeated but what a crash or the failover allows.
    noUnexplainedRepeats()
    const { explained } = ledger.repeats()
    for (const { repeat, by } of explained) {
      expect(['crash', 'lost', 'revoke']).toContain(by.kind)
      expect(repeat.offset).toBeGreaterThanOrEqual(by.from)
    }
  }, 300_000)
})
