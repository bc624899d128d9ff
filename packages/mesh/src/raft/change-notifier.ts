import type { Logger } from '../logger.js'
import type { RaftChange } from './types.js'

/** Tells listeners about changes of role, leader, epoch, high watermark or membership, once per distinct change. */
export class ChangeNotifier {
  private readonly listeners = new Set<(change: RaftChange) => void>()
  private last: RaftChange | undefined

  constructor(
    private readonly logger: Logger,
    private readonly partition: string,
  ) {}

  subscribe(listener: (change: RaftChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  publish(change: RaftChange): void {
    const last = this.last
    if (
      last !== undefined &&
      last.role === change.role &&
      last.leaderId === change.leaderId &&
      last.epoch === change.epoch &&
      last.highWatermark === change.highWatermark &&
      last.votersOffset === change.votersOffset &&
      last.learners.join() === change.learners.join()
    ) {
      return
    }
    this.last = change
    for (const listener of [...this.listeners]) {
      try {
        listener(change)
      } catch (err) {
        // A listener's failure is its own; the replica carries on.
        this.logger.warn({ partition: this.partition, err }, 'raft change listener threw')
      }
    }
  }
}
