import { type MemoryPartitionData, openMemoryLog } from '@tributary/log/memory'
import { describeLogCompliance } from '@tributary/test-utils'

describeLogCompliance('memory', () => {
  const disks = new Map<string, MemoryPartitionData>()
  return {
    open: (id, options = {}) => {
      const data = disks.get(id) ?? { segments: [], meta: {}, cleanShutdown: false }
      disks.set(id, data)
      return openMemoryLog({ name: id, data, ...options })
    },
  }
})
