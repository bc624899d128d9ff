import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '@tributary/log'
import { FsStore, openFsLog } from '@tributary/log/fs'
import { describeLogCompliance } from '@tributary/test-utils'

describeLogCompliance('fs', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tributary-fs-compliance-'))
  return {
    open: (id, options = {}) => openFsLog({ dir: join(root, id), name: id, ...options }),
    store: (id) => new FsStore({ dir: join(root, id), name: id, logger: silentLogger, indexIntervalBytes: 4096 }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
})
