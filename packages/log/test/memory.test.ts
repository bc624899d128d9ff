import { emptyPartitionData, type MemoryPartitionData, MemoryStore, openMemoryLog } from '@tributary/log/memory'
import { describeLogCompliance } from '@tributary/test-utils'

describeLogCompliance('memory', () => {
  const disks = new Map<string, MemoryPartitionData>()
  const disk = (id: string): MemoryPartitionData => {
    const data = disks.get(id) ?? emptyPartitionData()
    disks.set(id, data)
    return data
  }
  return {
    open: (id, options = {}) => openMemoryLog({ name: id, data: disk(id), ...options }),
    store: (id) => new MemoryStore(disk(id)),
  }
})
