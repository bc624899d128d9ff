/**
 * Committing one group of leader appends (see GroupCommitQueue): each append decided in order
 * (planLeaderGroup), all that passed written as one, then every caller answered — with its own
 * offsets, a retry with its original's, or all of them with the write's error.
 */
import { appendResult, type ValidatedAppend } from './batch-validation.js'
import type { PendingLeaderAppend } from './group-commit.js'
import { type LeaderGroupContext, planLeaderGroup } from './leader-append.js'

/** Decides, writes with `write` and answers each append of `group`. */
export async function commitLeaderGroup(
  group: PendingLeaderAppend[],
  ctx: LeaderGroupContext,
  write: (merged: ValidatedAppend) => Promise<unknown>,
): Promise<void> {
  const { accepted, pendingDuplicates } = await planLeaderGroup(group, ctx)
  if (accepted.length === 0) return
  const merged: ValidatedAppend = {
    batches: accepted.flatMap((a) => a.validated.batches),
    recordCount: accepted.reduce((n, a) => n + a.validated.recordCount, 0),
    bytes: accepted.reduce((n, a) => n + a.validated.bytes, 0),
    logAppendTime: -1,
  }
  try {
    await write(merged)
  } catch (err) {
    for (const { request } of [...accepted, ...pendingDuplicates]) request.reject(err)
    return
  }
  for (const { request, validated } of accepted) request.resolve(appendResult(validated))
  for (const { request, result } of pendingDuplicates) request.resolve(result)
}
