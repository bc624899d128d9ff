import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PartitionLog } from '@tributary/log'
import { openFsLog } from '@tributary/log/fs'
import { type PersistedQuorumState, type QuorumStateStore, validatePersistedQuorumState } from '../raft/index.js'
import type { PartitionLogFactory, PartitionLogSpec } from './log-factory.js'

/**
 * Partition logs as Kafka lays them out: `<dir>/<topic>-<partition>/`, with a
 * `partition.metadata` file naming the topic id, so a replica left from a topic that was
 * deleted and re-created under the same name is recognised as stale.
 */
export class FsLogFactory implements PartitionLogFactory {
  readonly kind = 'fs'

  constructor(private readonly dir: string) {}

  private pathOf(topic: string, partition: number): string {
    return join(this.dir, `${topic}-${partition}`)
  }

  async open(spec: PartitionLogSpec): Promise<PartitionLog> {
    const dir = this.pathOf(spec.topic, spec.partition)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'partition.metadata'), `version: 0\ntopic_id: ${spec.topicId}\n`)
    return openFsLog({ dir, name: `${spec.topic}-${spec.partition}`, topicConfig: spec.configs, logger: spec.logger })
  }

  quorumStore(topic: string, partition: number): QuorumStateStore {
    return new FileQuorumStateStore(join(this.pathOf(topic, partition), 'quorum-state.json'))
  }

  async stored(): Promise<Array<{ topic: string; partition: number; topicId: string }>> {
    await mkdir(this.dir, { recursive: true })
    const found: Array<{ topic: string; partition: number; topicId: string }> = []
    for (const entry of await readdir(this.dir, { withFileTypes: true })) {
      const match = /^(.+)-(\d+)$/.exec(entry.name)
      if (!entry.isDirectory() || match === null) continue
      const meta = await readFile(join(this.dir, entry.name, 'partition.metadata'), 'utf8').catch(() => '')
      const topicId = /topic_id: ([0-9a-f]+)/.exec(meta)?.[1]
      if (topicId !== undefined) found.push({ topic: match[1]!, partition: Number(match[2]), topicId })
    }
    return found
  }

  async remove(topic: string, partition: number): Promise<void> {
    await rm(this.pathOf(topic, partition), { recursive: true, force: true })
  }
}

/**
 * A replica's Raft state in `quorum-state.json`: written to a temporary file, fsync'd,
 * renamed over the old one and the directory fsync'd — durable before Raft acts on it.
 */
class FileQuorumStateStore implements QuorumStateStore {
  constructor(private readonly path: string) {}

  async load(): Promise<PersistedQuorumState | undefined> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw err
    }
    return validatePersistedQuorumState(JSON.parse(text) as PersistedQuorumState)
  }

  async save(state: PersistedQuorumState): Promise<void> {
    const tmp = `${this.path}.tmp`
    const handle = await open(tmp, 'w')
    try {
      await handle.writeFile(JSON.stringify(state))
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(tmp, this.path)
    const dir = await open(join(this.path, '..'), 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
  }
}
