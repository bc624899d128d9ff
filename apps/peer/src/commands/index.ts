/** The mesh-facing command groups of `tributary`, registered on the program cli.ts builds. */
import type { Command } from 'commander'
import { registerCluster } from './cluster.js'
import { registerConsume } from './consume.js'
import { registerGroups } from './groups.js'
import { registerPerfConsume } from './perf-consume.js'
import { registerPerfProduce } from './perf-produce.js'
import { registerProduce } from './produce.js'
import { registerTopics } from './topics.js'

export function registerCommands(program: Command): void {
  registerTopics(program)
  registerProduce(program)
  registerConsume(program)
  registerCluster(program)
  registerGroups(program)
  const perf = program
    .command('perf')
    .description("throughput and latency tests, like Kafka's perf tools")
    .addHelpText(
      'after',
      '\nExamples:\n  tributary perf produce --topic t --num-records 1000000 --record-size 100 --json\n' +
        '  tributary perf consume --topic t --messages 1000000',
    )
  registerPerfProduce(perf)
  registerPerfConsume(perf)
}
