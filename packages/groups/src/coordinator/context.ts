/** What every coordinator handler works with: settings, metadata, the output being built, the time. */
import type { CoordinatorComponents, CoordinatorConfig } from './config.js'
import type { OutputBuilder } from './output.js'

export interface HandlerContext {
  config: CoordinatorConfig
  components: CoordinatorComponents
  out: OutputBuilder
  now: number
}
