import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openFsLog } from '@tributary/log/fs'
import { describeLogCompliance } from '@tributary/test-utils'

describeLogCompliance('fs', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tributary-fs-compliance-'))
  return {
    open: (id, options = {}) => openFsLog({ dir: join(root, id), name: id, ...options }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
})
