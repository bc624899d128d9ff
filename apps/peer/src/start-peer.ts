import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GroupService } from '@tributary/groups/service'
import { createPeer, type Peer, type PeerOptions } from '@tributary/mesh'
import { FsLogFactory, snapshotFile } from '@tributary/mesh/node-storage'
import { pino } from 'pino'
import { lockDataDir } from './data-dir-lock.js'
import { startHttpServer } from './http-server.js'
import { createMetrics } from './metrics.js'

export const DEFAULTS = {
  dataDir: './data',
  host: '127.0.0.1',
  port: 4001,
  wsPort: 4002,
  httpPort: 4080,
  logLevel: 'info',
} as const

export interface StartPeerOptions {
  dataDir: string
  host: string
  port: number
  wsPort: number
  httpPort: number
  bootstrap: string[]
  voter: boolean
  logLevel: string
  /** Replication settings over the peer defaults (ISR lag, replacement delay, leader balancing). */
  raft?: PeerOptions['raft']
  /** The built web app to serve on the HTTP port. Default: apps/web/dist of this repository. */
  webRoot?: string
}

/** apps/web/dist beside this app, from src/ (tsx) and from dist/ (compiled) alike. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url))

/** What `peer start` writes to `<data>/peer.json` for the CLI and tests to find it. */
export interface PeerFile {
  peerId: string
  addresses: string[]
  httpPort: number
  pid: number
}

/**
 * `tributary peer start`: one peer in this process until SIGINT/SIGTERM, logging JSON lines
 * to stdout. Shutdown is clean: the HTTP server closes, the peer announces its leave and
 * flushes and closes every log, the data-dir lock is released. A second signal forces exit.
 */
export async function startPeerProcess(options: StartPeerOptions): Promise<void> {
  const logger = pino({ level: options.logLevel, base: { component: 'tributary' } })
  const dataDir = resolve(options.dataDir)
  const unlock = await lockDataDir(dataDir)
  let peer: Peer | undefined
  try {
    peer = await createPeer({
      dataDir,
      host: options.host,
      tcpPort: options.port,
      wsPort: options.wsPort,
      bootstrap: options.bootstrap,
      voter: options.voter,
      ...(options.raft === undefined ? {} : { raft: options.raft }),
      storage: new FsLogFactory(join(dataDir, 'logs')),
      metadataPersistence: snapshotFile(dataDir),
      logger,
    })
  } catch (err) {
    await unlock()
    throw err
  }
  const running = peer
  let groups: GroupService
  try {
    // Consumer groups are a service on top of the peer (groups depends on mesh, not the reverse).
    groups = await GroupService.start(running, { logger })
  } catch (err) {
    await running.stop().catch(() => {})
    await unlock()
    throw err
  }
  const metrics = createMetrics({
    peerId: running.peerId,
    members: () => running.members(),
    hostedPartitions: () =>
      running.partitions.list().map((p) => ({
        topic: p.topic,
        partition: p.partition,
        logStartOffset: p.log.logStartOffset,
        logEndOffset: p.log.logEndOffset,
        highWatermark: p.log.highWatermark,
        sizeBytes: p.log.sizeBytes,
        leader: p.isLeader,
        voters: p.raft.voterSet?.voters.length ?? 1,
        inSync: p.isLeader ? p.raft.inSyncVoters().length : 0,
        replicaLag: p.isLeader
          ? p.raft
              .replicaProgress()
              .filter((r) => r.id !== running.peerId)
              .map((r) => ({ replica: r.id, lagOffsets: Math.max(0, p.log.logEndOffset - Math.max(0, r.endOffset)) }))
          : [],
      })),
    leaderChanges: () => running.leaderChanges,
    raftStats: () => running.partitions.raftStats(),
    replicaFetchStats: () => running.replicaFetchStats(),
    onRequest: (listener) => running.onRequest(listener),
  })
  const http = await startHttpServer(
    options.host,
    options.httpPort,
    {
      peerId: running.peerId,
      startedAtMs: running.startedAtMs,
      health: () => ({
        peers: running.members().filter((m) => m.status === 'alive').length,
        partitions: running.partitions.list().length,
        addresses: running.addresses(),
      }),
      addresses: () => running.addresses(),
    },
    metrics.registry,
    { webRoot: options.webRoot ?? DEFAULT_WEB_ROOT },
  )
  const info: PeerFile = {
    peerId: running.peerId,
    addresses: running.addresses(),
    httpPort: http.port,
    pid: process.pid,
  }
  await new Promise<void>((resolveStop) => {
    let stopping = false
    const stop = (signal: string): void => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now')
        process.exit(130)
      }
      stopping = true
      logger.info({ signal }, 'shutting down')
      void (async () => {
        try {
          metrics.stop()
          await http.close()
          // First, so members waiting on a coordinator here are told to find the new one.
          await groups.stop()
          await running.stop()
        } catch (err) {
          logger.error({ err }, 'unclean shutdown')
          process.exitCode = 1
        } finally {
          await unlock()
          resolveStop()
        }
      })()
    }
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
    // Announced only now: whoever reads peer.json and signals the peer gets a clean shutdown (its
    // leave announced), not Node's default exit.
    writeFile(join(dataDir, 'peer.json'), `${JSON.stringify(info, null, 2)}\n`).then(
      () => logger.info({ ...info, dataDir }, 'peer ready'),
      (err: unknown) => {
        logger.error({ err }, 'cannot write peer.json: stopping')
        process.exitCode = 1
        stop('startup failure')
      },
    )
  })
}
