import '../src/polyfills.js'
import { afterEach, describe, expect, it } from 'vitest'
import { measureStreamThroughput, PerfStreamError, registerPerfProtocol } from '../src/perf.js'
import { NodeSession, recordingLogger, waitFor } from './helpers.js'

const MIB = 2 ** 20

describe('perf > raw stream throughput', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function pair(maxBytes?: number) {
    const [server, client] = await Promise.all([session.node({ wsPort: false }), session.node({ wsPort: false })])
    const logger = recordingLogger()
    const unregister = await registerPerfProtocol(server, { logger, ...(maxBytes === undefined ? {} : { maxBytes }) })
    session.onCleanup(unregister)
    return { server, client, logger, unregister }
  }

  it('moves 8 MiB up and 8 MiB back on one stream, and the server counts every byte it dropped', async () => {
    const { server, client, logger } = await pair()
    const result = await measureStreamThroughput(client, server.getMultiaddrs(), {
      sendBytes: 8 * MIB,
      receiveBytes: 8 * MIB,
    })
    expect(result).toMatchObject({ sentBytes: 8 * MIB, receivedBytes: 8 * MIB, bytes: 16 * MIB })
    expect(result.seconds).toBeGreaterThan(0)
    expect(result.mbPerSec).toBeCloseTo(16 / result.seconds, 6)
    const done = await waitFor(() => logger.entries.find((e) => e.msg === 'perf stream done'))
    expect(done.obj).toMatchObject({ receivedBytes: 8 * MIB, sentBytes: 8 * MIB })
    expect(logger.warnings()).toEqual([])
  })

  it('answers an upload-only client with an empty download, with a chunk size that does not divide the upload', async () => {
    const { server, client } = await pair()
    const result = await measureStreamThroughput(client, server.getMultiaddrs(), {
      sendBytes: MIB + 3,
      chunkBytes: 10_000,
    })
    expect(result).toMatchObject({ sentBytes: MIB + 3, receivedBytes: 0, bytes: MIB + 3 })
  })

  it('resets the stream of a client asking for more than maxBytes back', async () => {
    const { server, client, logger } = await pair(MIB)
    await expect(
      measureStreamThroughput(client, server.getMultiaddrs(), { sendBytes: 1024, receiveBytes: MIB + 1 }),
    ).rejects.toThrow(PerfStreamError)
    await waitFor(() => logger.warnings().some((e) => (e.obj as { err?: string }).err?.includes('at most')))
  })

  it('stops serving after unregister', async () => {
    const { server, client, unregister } = await pair()
    await unregister()
    await expect(measureStreamThroughput(client, server.getMultiaddrs(), { sendBytes: 1024 })).rejects.toThrow()
  })
})
