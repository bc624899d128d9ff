import { FencedLeaderEpochError, InvalidRecordError } from '@tributary/wire'
import { type CheckedAppend, checkLeaderAppend, stampLeaderAppend, type ValidatedAppend } from './batch-validation.js'
import type { LogConfig } from './config.js'
import { inPartition } from './errors.js'
import type { PendingLeaderAppend } from './group-commit.js'
import type { DuplicateAppend, ProducerStateManager } from './producer-state.js'
import type { AppendResult } from './types.js'

export interface LeaderGroupContext {
  name: string
  config: LogConfig
  producers: ProducerStateManager
  /** The log end offset: where the group's first accepted append starts. */
  nextOffset: number
  latestEpoch: number
  now: number
  ensureOpen(): void
}

export interface PlannedGroup {
  /** Appends to write, in order, with their offsets stamped. */
  accepted: Array<{ request: PendingLeaderAppend; validated: ValidatedAppend }>
  /** Retries of batches that are themselves in `accepted`: answered only once the write succeeds. */
  pendingDuplicates: Array<{ request: PendingLeaderAppend; result: AppendResult }>
}

/**
 * Decides the appends of one group commit, in call order, before anything is written: the
 * leader-epoch fence, batch validation (done on arrival, see Log.appendAsLeader), then idempotence — a retry is answered with the
 * original offsets instead of being appended, and is found even when the original is an
 * earlier append of the same group. Only then are offsets stamped into the bytes, so a
 * retry's bytes (possibly the very buffer of the original) are never touched. A failed append
 * is rejected here and leaves the state as if it had not been called.
 */
export async function planLeaderGroup(group: PendingLeaderAppend[], ctx: LeaderGroupContext): Promise<PlannedGroup> {
  const plan: PlannedGroup = { accepted: [], pendingDuplicates: [] }
  const check = ctx.producers.beginCheck(ctx.now)
  let { nextOffset, latestEpoch } = ctx
  for (const request of group) {
    try {
      ctx.ensureOpen()
      request.options.signal?.throwIfAborted()
      const { epoch } = request
      if (!Number.isSafeInteger(epoch) || epoch < 0) {
        throw new InvalidRecordError(`${ctx.name}: leader epoch must be a non-negative integer, got ${epoch}`)
      }
      if (epoch < latestEpoch) {
        throw new FencedLeaderEpochError(`${ctx.name}: epoch ${epoch} is older than the log's ${latestEpoch}`)
      }
      // Checked on arrival; again only if the config changed since (e.g. max.message.bytes lowered).
      const checked =
        request.checkedWith === ctx.config
          ? await request.checked
          : await checkLeaderAppend(request.bytes, ctx.name, ctx.config, {
              allowControl: request.options.allowControl === true,
            })
      let duplicate: DuplicateAppend | undefined
      try {
        duplicate = check.check(checked.producers)
      } catch (err) {
        throw inPartition(err, `${ctx.name}: rejected append`)
      }
      if (duplicate !== undefined) {
        const result = duplicateResult(checked, duplicate)
        if (duplicate.pending) plan.pendingDuplicates.push({ request, result })
        else request.resolve(result)
        continue
      }
      const validated = stampLeaderAppend(checked, ctx.name, ctx.config, nextOffset, epoch, ctx.now)
      check.record(checked.producers, validated.batches)
      nextOffset = validated.batches.at(-1)!.lastOffset + 1
      latestEpoch = epoch
      plan.accepted.push({ request, validated })
    } catch (err) {
      request.reject(err)
    }
  }
  return plan
}

function duplicateResult(checked: CheckedAppend, duplicate: DuplicateAppend): AppendResult {
  return {
    firstOffset: duplicate.firstOffset,
    lastOffset: duplicate.lastOffset,
    logAppendTime: -1,
    batchCount: checked.batches.length,
    recordCount: checked.recordCount,
    bytes: 0,
    duplicate: true,
  }
}
