/**
 * Self-healing across peer processes on loopback, with no operator command:
 * - voter replacement: four peers, a topic with replication factor 3, a producer writing with
 *   acks=all. A voter is SIGKILLed for good; its partition's leader adds the fourth peer as a
 *   learner, promotes it once caught up and removes the lost voter, so the partition is back to
 *   three caught-up voters. Every acknowledged record is then on all three. The lost peer comes
 *   back afterwards: it deletes its stale replica without disturbing the leader.
 * - preferred-leader balancing: three peers restarted one after another end up each leading
 *   the partitions placement made them preferred leader of.
 * The peers run with short replication timings (ISR lag, replacement delay, balance interval),
 * passed as CLI flags.
 */
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PartitionMetadata } from '@tributary/client'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { health, stopAll, waitFor } from '../helpers/peer-process.ts'
import { Cluster } from './cluster.ts'
import { checkAgainstLedger } from './ledger-check.ts'
import { PartitionProducer } from './producer.ts'
import { readReplicaLog } from './replica-log.ts'

const REPLACE = 'replace'
const BALANCE = 'balance'
const BALANCE_PARTITIONS = 6
const TIMING = [
  '--replica-lag-time-max-ms',
  '1500',
  '--replica-replacement-delay-ms',
  '2000',
  '--leader-imbalance-check-interval-ms',
  '1500',
]

let root: string
let client: MeshNode
let cluster: Cluster | undefined

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-replacement-'))
  client = await createMeshNode({ tcpPort: 0, wsPort: false })
}, 30_000)

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || cluster === undefined) return
  const dir = join(tmpdir(), `tributary-replacement-fail-${Date.now()}`)
  await cp(cluster.logDir, dir, { recursive: true }).catch(() => {})
  console.error(`peer logs of "${ctx.task.name}": ${dir}`)
})

afterAll(async () => {
  cluster?.close()
  await client?.stop()
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

/** A counter's value in a peer's /metrics (0 when absent). */
async function metric(c: Cluster, id: string, line: string): Promise<number> {
  const text = await c.metrics(id)
  const found = text.split('\n').find((l) => l.startsWith(line))
  return found === undefined ? 0 : Number(found.slice(found.lastIndexOf(' ') + 1))
}

/** The partition as every live peer reports it, once they all agree on leader, epoch and replicas. */
async function agreed(c: Cluster, topic: string, partition: number): Promise<PartitionMetadata | undefined> {
  let seen: PartitionMetadata | undefined
  for (const id of c.live()) {
    const p = (await c.broker(id).metadata([topic])).topics[0]?.partitions.find((q) => q.partition === partition)
    if (p === undefined || p.leader === '') return undefined
    if (seen !== undefined && (p.leader !== seen.leader || p.replicas.join() !== seen.replicas.join())) return undefined
    seen = p
  }
  return seen
}

describe('replication > a voter lost for good is replaced', () => {
  let producer: PartitionProducer
  let lost: string
  let spare: string

  it('starts four peers and a topic with three replicas, written with acks=all', async () => {
    cluster = await Cluster.start(client, join(root, 'a'), 4, TIMING)
    const c = cluster
    for (const id of c.ids) await waitFor(async () => (await health(c.peer(id))).peers === 4, `${id} to see 4 peers`)
    const created = await c.broker(c.ids[0]!).createTopics([{ name: REPLACE, partitions: 1, replicationFactor: 3 }])
    expect(created.map((t) => t.error)).toEqual([undefined])
    const [p] = await c.waitLeadersInSync(REPLACE, 1)
    expect(p!.replicas).toHaveLength(3)
    spare = c.ids.find((id) => !p!.replicas.includes(id))!
    producer = new PartitionProducer(c, REPLACE, 0, { pauseMs: 5 })
    producer.start()
    await waitFor(() => producer.acked.length >= 20, 'the first acknowledged writes')
  }, 60_000)

  it('after a SIGKILL, the partition is back to three caught-up voters — the fourth peer in, the lost one out', async () => {
    const c = cluster!
    const [before] = await c.partitions(REPLACE)
    // The leader: its loss takes an election and then a replacement, with writes going on.
    lost = before!.leader
    const killedAt = Date.now()
    await c.kill(lost)
    const after = await waitFor(
      async () => {
        const p = await agreed(c, REPLACE, 0)
        const healed =
          p !== undefined &&
          p.replicas.length === 3 &&
          !p.replicas.includes(lost) &&
          p.replicas.includes(spare) &&
          p.inSync.length === 3
        return healed ? p : undefined
      },
      `${REPLACE}-0 to replace ${lost.slice(-8)} by ${spare.slice(-8)}`,
      40_000,
    )
    console.log(
      `replaced a lost voter in ${Date.now() - killedAt} ms; replicas now ${after.replicas.map((r) => r.slice(-8))}`,
    )
    // The replacement kept the preferred-leader order: the new voter took the lost one's place.
    const slot = before!.replicas.indexOf(lost)
    expect(after.replicas.filter((_, i) => i !== slot)).toEqual(before!.replicas.filter((_, i) => i !== slot))
    expect(after.replicas[slot]).toBe(spare)
    const acksBefore = producer.acked.length
    await waitFor(() => producer.acked.length > acksBefore + 20, 'writes acknowledged by the new voter set')
    expect(producer.error).toBeUndefined()
    const changes = await Promise.all(
      after.replicas.map(async (id) => [
        await metric(c, id, 'tributary_voter_changes_total{change="added"'),
        await metric(c, id, 'tributary_voter_changes_total{change="removed"'),
      ]),
    )
    expect(changes.reduce((sum, [added]) => sum + added!, 0)).toBeGreaterThanOrEqual(1)
    expect(changes.reduce((sum, [, removed]) => sum + removed!, 0)).toBeGreaterThanOrEqual(1)
  }, 60_000)

  it('the lost peer, back, deletes its stale replica without disturbing the leader', async () => {
    const c = cluster!
    await producer.stop()
    await c.waitCaughtUp(REPLACE, 1)
    // Leadership settled first: the spare took the lost peer's slot, so when that was the
    // preferred one, balancing hands leadership to it (a new epoch) within its check interval.
    const before = await waitFor(async () => {
      const p = await agreed(c, REPLACE, 0)
      return p !== undefined && p.leader === p.replicas[0] ? p : undefined
    }, `${REPLACE}-0 to be led by its preferred replica`)
    const back = await c.restart(lost)
    await waitFor(
      () => back.output().includes('removed partition replica and its data'),
      'the returning peer to delete its replica',
      30_000,
    )
    await expect(stat(join(back.dataDir, 'logs', `${REPLACE}-0`))).rejects.toThrow()
    // Pre-votes kept it from forcing an election: same leader, same epoch.
    const p = await waitFor(() => agreed(c, REPLACE, 0), 'the peers to agree on the partition')
    expect([p.leader, p.leaderEpoch]).toEqual([before.leader, before.leaderEpoch])
    expect(p.replicas).not.toContain(lost)
  }, 60_000)

  it('every acknowledged record is on all three voters, exactly once and in order', async () => {
    const c = cluster!
    const [p] = await c.partitions(REPLACE)
    await c.waitCaughtUp(REPLACE, 1)
    const dirs = new Map(p!.replicas.map((id) => [id, c.peer(id).dataDir]))
    const codes = await c.stopAll()
    expect(codes.every((code) => code === 0)).toBe(true)
    const problems: string[] = []
    for (const [id, dir] of dirs) {
      const log = await readReplicaLog(dir, REPLACE, 0)
      problems.push(...checkAgainstLedger(log.values, producer, id.slice(-8)).problems)
    }
    problems.push(...c.alarms)
    console.log(`${REPLACE}-0: ${producer.ackedValues().length} acknowledged records checked on ${dirs.size} voters`)
    expect(problems).toEqual([])
    c.close()
  }, 60_000)
})

describe('replication > leadership goes back to the preferred leaders', () => {
  it('after restarting every peer in turn, each partition is led by its first replica', async () => {
    cluster = await Cluster.start(client, join(root, 'b'), 3, TIMING)
    const c = cluster
    for (const id of c.ids) await waitFor(async () => (await health(c.peer(id))).peers === 3, `${id} to see 3 peers`)
    await c.broker(c.ids[0]!).createTopics([{ name: BALANCE, partitions: BALANCE_PARTITIONS, replicationFactor: 3 }])
    await c.waitLeadersInSync(BALANCE, BALANCE_PARTITIONS)
    for (const id of c.ids) {
      await c.peer(id).stop('SIGTERM')
      await c.restart(id)
      await c.waitLeadersInSync(BALANCE, BALANCE_PARTITIONS, 30_000)
    }
    const started = Date.now()
    const balanced = await waitFor(
      async () => {
        const partitions = await c.waitLeadersInSync(BALANCE, BALANCE_PARTITIONS)
        return partitions.every((p) => p.leader === p.replicas[0]) ? partitions : undefined
      },
      `every partition of ${BALANCE} to be led by its preferred replica`,
      30_000,
    )
    const leaders = new Map<string, number>()
    for (const p of balanced) leaders.set(p.leader, (leaders.get(p.leader) ?? 0) + 1)
    const balancedAfter = Date.now() - started
    // Hand-overs happened (restarted processes took their /metrics counters with them: read the logs).
    const logs = await Promise.all((await readdir(c.logDir)).map((f) => readFile(join(c.logDir, f), 'utf8')))
    const handOvers = logs.join('').split('handing leadership to the preferred leader').length - 1
    console.log(
      `balanced ${balancedAfter} ms after the last restart, ${handOvers} hand-overs in all; ` +
        `partitions led per peer: ${[...leaders.values()]}`,
    )
    expect(handOvers).toBeGreaterThanOrEqual(1)
    // Placement spreads first places: no peer leads everything.
    expect(leaders.size).toBeGreaterThan(1)
    expect(await c.stopAll()).toEqual([0, 0, 0])
    c.close()
  }, 150_000)
})
