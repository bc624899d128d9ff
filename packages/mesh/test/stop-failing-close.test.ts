/**
 * A peer stops completely even when a partition log cannot write its final checkpoint (a full
 * disk or browser quota makes `close()` reject): every other log is closed, the libp2p node
 * stops, and the failure is logged, not thrown. Real peer on loopback, logs in memory.
 */
import { StorageQuotaError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { createPeer } from '../src/create-peer.js'
import type { PartitionLogSpec } from '../src/partitions/log-factory.js'
import { MemoryLogFactory } from '../src/partitions/memory-log-factory.js'
import { recordingLogger, waitFor } from './helpers.js'

/** Memory logs whose close fails for partition 0 of every topic. */
class FailingCloseFactory extends MemoryLogFactory {
  readonly closed: string[] = []

  override async open(spec: PartitionLogSpec) {
    const log = await super.open(spec)
    const close = log.close.bind(log)
    log.close = async () => {
      await close()
      if (spec.partition === 0) throw new StorageQuotaError(`${spec.topic}-0: quota exhausted writing the checkpoint`)
      this.closed.push(`${spec.topic}-${spec.partition}`)
    }
    return log
  }
}

describe('mesh > peer stop', () => {
  it('closes every log and stops the node though one log fails to close', async () => {
    const storage = new FailingCloseFactory()
    const logger = recordingLogger()
    const peer = await createPeer({ tcpPort: 0, wsPort: false, storage, logger })
    await peer.createTopic({ name: 'full', partitions: 3, replicationFactor: 1, configs: {} })
    await waitFor(() => [0, 1, 2].every((p) => peer.partitions.get('full', p)?.isLeader), {
      timeoutMs: 20_000,
      message: 'the peer to lead all three partitions',
    })
    await expect(peer.stop()).resolves.toBeUndefined()
    expect(storage.closed.sort()).toEqual(['full-1', 'full-2'])
    expect(peer.node.status).toBe('stopped')
    expect(logger.warnings().some((e) => /closing the log failed/.test(e.msg ?? ''))).toBe(true)
  }, 60_000)
})
