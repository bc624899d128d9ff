/**
 * Failover, measured from the producer process of `npm run bench -- mesh`: while acks=all
 * produces go to partition 0 one after another, its leader's process is SIGKILLed; the time
 * from the signal to the first acks=all produce acknowledged by another peer is the failover
 * time. Each round then restarts the killed peer on its data dir and waits until every replica
 * holds and commits the same log and every peer names the same leaders.
 *
 * After the kill the producer tries the peer a refusal names as leader (its leader hint), else
 * the next surviving peer, every RETRY_MS; every refusal and broken request is counted by name.
 * It never sends to the killed peer once a request to it failed (it learned it is gone).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { waitFor } from '../helpers/peer-process.ts'
import { ask } from './_mesh-ipc.ts'
import { errorName, isRetriable, type LeaderRouter } from './_mesh-router.ts'
import { encodeRing, progress } from './_peer-phases.ts'

/** Pause after a refusal without a usable leader hint (polling the survivors). */
export const RETRY_MS = 5
/** One produce attempt; a request to the dead peer must not hold the loop up. */
export const ATTEMPT_TIMEOUT_MS = 500
/** Successful produces to the leader before it is killed (the loop is warm and steady). */
const WARM_SUCCESSES = 50
const ROUND_TIMEOUT_MS = 30_000
const AGREE_TIMEOUT_MS = 60_000
const RECORDS_PER_PRODUCE = 10

export interface FailoverRound {
  round: number
  /** The killed peer, and the peer that acknowledged first after it. */
  killed: string
  newLeader: string
  failoverMs: number
  epochBefore: number
  epochAfter: number
  /** Produces sent after the kill was requested, the successful one included. */
  attempts: number
  /** Retriable errors after the kill was requested, by name. */
  errors: Record<string, number>
  /** From the restart of the killed peer until the cluster settled again (not part of failover). */
  recoveryMs: number
}

export interface FailoverResult {
  rounds: FailoverRound[]
  medianMs: number
}

/** Every peer answers, names the same leader and epoch for every partition, and each leader has every voter in sync. */
export async function waitAgreed(router: LeaderRouter, partitions: number): Promise<void> {
  await waitFor(
    async () => {
      const views = await router.views({ signal: AbortSignal.timeout(2000) })
      if (views.size !== router.peerIds.length) return undefined
      for (let partition = 0; partition < partitions; partition++) {
        const named = [...views.values()].map((v) => v.find((p) => p.partition === partition))
        const first = named[0]
        if (first === undefined || first.leader === '') return undefined
        if (named.some((p) => p?.leader !== first.leader || p.leaderEpoch !== first.leaderEpoch)) return undefined
        const own = views.get(first.leader)?.find((p) => p.partition === partition)
        if (own === undefined || own.inSync.length !== own.replicas.length) return undefined
      }
      return true
    },
    `every peer to name the same leaders of ${router.topic}, with every replica in sync`,
    AGREE_TIMEOUT_MS,
  )
  await router.refresh()
}

async function epochOf(router: LeaderRouter, partition: number): Promise<number> {
  let epoch = -1
  for (const view of (await router.views({ signal: AbortSignal.timeout(2000) })).values()) {
    epoch = Math.max(epoch, view.find((p) => p.partition === partition)?.leaderEpoch ?? -1)
  }
  return epoch
}

const wallNow = (): number => performance.timeOrigin + performance.now()

async function round(router: LeaderRouter, n: number, records: Uint8Array): Promise<Omit<FailoverRound, 'recoveryMs'>> {
  const topic = router.topic
  const victim = router.leaderOf(0)
  if (victim === undefined) throw new Error(`${topic}-0 has no known leader`)
  const epochBefore = await epochOf(router, 0)
  const errors = new Map<string, number>()
  let killRequested = false
  let successes = 0
  let attempts = 0
  let target = victim
  let answered: { at: number; by: string } | undefined
  let warm: () => void = () => {}
  const warmed = new Promise<void>((resolveWarm) => {
    warm = resolveWarm
  })
  const deadline = performance.now() + ROUND_TIMEOUT_MS
  const survivors = (): string[] => router.peerIds.filter((id) => id !== victim)

  const loop = async (): Promise<void> => {
    while (answered === undefined) {
      if (performance.now() > deadline) throw new Error(`round ${n}: no acks=all produce succeeded within 30 s`)
      const to = target
      if (killRequested) attempts++
      try {
        await router
          .broker(to)
          .produce(
            { topic, partition: 0, acks: -1, timeoutMs: ATTEMPT_TIMEOUT_MS, records },
            { signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) },
          )
        if (killRequested && to !== victim) answered = { at: wallNow(), by: to }
        else if (++successes === WARM_SUCCESSES) warm()
      } catch (err) {
        if (!killRequested || !isRetriable(err)) throw err
        const name = errorName(err)
        errors.set(name, (errors.get(name) ?? 0) + 1)
        const hint = (err as { leaderHint?: string }).leaderHint
        const others = survivors()
        if (hint !== undefined && hint !== to && others.includes(hint)) {
          target = hint
          continue
        }
        // The next survivor (the first after a failure of the killed peer, which is not among them).
        target = others[(others.indexOf(to) + 1) % others.length]!
        await sleep(RETRY_MS)
      }
    }
  }

  const running = loop()
  await Promise.race([warmed, running])
  progress(`failover round ${n}: ${successes} acks=all produces to the leader of ${topic}-0; killing it`)
  killRequested = true
  const killed = await ask({ type: 'kill', peerId: victim })
  await running
  if (killed.type !== 'killed' || answered === undefined) throw new Error(`round ${n}: unexpected ${killed.type}`)
  const failoverMs = answered.at - killed.atMs
  const epochAfter = await epochOf(router, 0)
  progress(
    `failover round ${n}: ${failoverMs.toFixed(0)} ms to the first acks=all produce (by …${answered.by.slice(-8)}, ` +
      `epoch ${epochBefore} → ${epochAfter}) after ${attempts} attempts: ${JSON.stringify(Object.fromEntries(errors))}`,
  )
  return {
    round: n,
    killed: victim,
    newLeader: answered.by,
    failoverMs,
    epochBefore,
    epochAfter,
    attempts,
    errors: Object.fromEntries(errors),
  }
}

export async function failoverPhase(router: LeaderRouter, partitions: number, rounds: number): Promise<FailoverResult> {
  const [records] = encodeRing(RECORDS_PER_PRODUCE)
  const results: FailoverRound[] = []
  for (let n = 1; n <= rounds; n++) {
    await waitAgreed(router, partitions)
    const result = await round(router, n, records!)
    const restartedAt = performance.now()
    const restarted = await ask({ type: 'restart', peerId: result.killed, topic: router.topic, partitions })
    if (restarted.type !== 'restarted') throw new Error(`round ${n}: unexpected ${restarted.type}`)
    router.setAddress(restarted.address)
    await waitAgreed(router, partitions)
    const recoveryMs = performance.now() - restartedAt
    results.push({ ...result, recoveryMs })
    progress(
      `failover round ${n}: the killed peer is back, every replica in sync after ${(recoveryMs / 1000).toFixed(1)} s`,
    )
  }
  const sorted = results.map((r) => r.failoverMs).sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const medianMs = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return { rounds: results, medianMs }
}
