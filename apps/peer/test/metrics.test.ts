import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { multiaddr } from '@multiformats/multiaddr'
import { Broker } from '@tributary/client'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import { encodeRecordBatchSync } from '@tributary/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PeerProcess, startPeerProcess, stopAll, waitFor } from '../../../test/helpers/peer-process.ts'

let root: string
let client: MeshNode
let peer: PeerProcess
let broker: Broker

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-metrics-'))
  peer = await startPeerProcess(join(root, 'p'))
  client = await createMeshNode({ tcpPort: 0, wsPort: false })
  broker = new Broker(client, multiaddr(peer.address), { requestTimeoutMs: 10_000 })
}, 60_000)

afterAll(async () => {
  broker?.close()
  await client?.stop()
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${peer.httpPort}/metrics`, { signal: AbortSignal.timeout(5000) })
  expect(res.headers.get('content-type')).toMatch(/text\/plain/)
  return res.text()
}

describe('peer > metrics', () => {
  it('exposes peers, hosted partitions, offsets, replication and request figures in Prometheus format', async () => {
    await broker.createTopics([{ name: 'm', partitions: 1, replicationFactor: 1 }])
    const records = encodeRecordBatchSync({ records: [{ key: null, value: new Uint8Array(100) }] })
    const produced = await waitFor(
      () => broker.produce({ topic: 'm', partition: 0, acks: -1, records }).catch(() => undefined),
      'the partition to accept produce',
    )
    // The peer counts itself once its first heartbeat is out.
    const text = await waitFor(async () => {
      const t = await scrape()
      return t.includes('tributary_peers{') ? t : undefined
    }, 'the first heartbeat')
    /** The sample of `metric` whose labels include `labels` (label order is the exporter's business). */
    const value = (metric: string, labels: Record<string, string> = {}): number => {
      const line = text.split('\n').find((l) => {
        if (!l.startsWith(`${metric}{`) && !l.startsWith(`${metric} `)) return false
        return Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))
      })
      return line === undefined ? Number.NaN : Number(line.split(' ').at(-1))
    }
    const partition = { topic: 'm', partition: '0' }
    expect(value('tributary_peers', { status: 'alive' })).toBe(1)
    expect(value('tributary_partitions_hosted', { role: 'leader' })).toBe(1)
    expect(value('tributary_log_end_offset', partition)).toBe(produced.baseOffset + 1)
    expect(value('tributary_high_watermark', partition)).toBe(produced.baseOffset + 1)
    expect(value('tributary_partition_in_sync_voters', partition)).toBe(1)
    expect(value('tributary_under_replicated_partitions')).toBe(0)
    expect(value('tributary_leader_changes_total')).toBeGreaterThanOrEqual(1)
    expect(value('tributary_requests_total', { protocol: 'produce', outcome: 'ok' })).toBeGreaterThanOrEqual(1)
    expect(value('tributary_request_bytes_in_total', { protocol: 'produce' })).toBeGreaterThan(100)
    expect(value('tributary_response_bytes_out_total', { protocol: 'produce' })).toBeGreaterThan(0)
    expect(value('tributary_request_duration_seconds_count', { protocol: 'produce' })).toBeGreaterThanOrEqual(1)
    expect(text).toMatch(/tributary_process_resident_memory_bytes/)
  })
})
