import {
  CoordinatorLoadInProgressError,
  CoordinatorNotAvailableError,
  ErrorCode,
  errorFromCode,
  FencedInstanceIdError,
  GroupIdNotFoundError,
  GroupMaxSizeReachedError,
  IllegalGenerationError,
  InconsistentGroupProtocolError,
  InvalidGroupIdError,
  InvalidSessionTimeoutError,
  NonEmptyGroupError,
  NotCoordinatorError,
  OffsetMetadataTooLargeError,
  PartitionNotOwnedError,
  RebalanceInProgressError,
  TributaryError,
  UnknownMemberIdError,
} from '@tributary/wire'
import { describe, expect, it } from 'vitest'

describe('groups > error classes (wire table)', () => {
  const cases: Array<[new (message: string) => TributaryError, string, number, boolean]> = [
    [CoordinatorLoadInProgressError, 'CoordinatorLoadInProgressError', 14, true],
    [CoordinatorNotAvailableError, 'CoordinatorNotAvailableError', 15, true],
    [NotCoordinatorError, 'NotCoordinatorError', 16, true],
    [OffsetMetadataTooLargeError, 'OffsetMetadataTooLargeError', 12, false],
    [IllegalGenerationError, 'IllegalGenerationError', 22, false],
    [InconsistentGroupProtocolError, 'InconsistentGroupProtocolError', 23, false],
    [InvalidGroupIdError, 'InvalidGroupIdError', 24, false],
    [UnknownMemberIdError, 'UnknownMemberIdError', 25, false],
    [InvalidSessionTimeoutError, 'InvalidSessionTimeoutError', 26, false],
    [RebalanceInProgressError, 'RebalanceInProgressError', 27, false],
    [NonEmptyGroupError, 'NonEmptyGroupError', 68, false],
    [GroupIdNotFoundError, 'GroupIdNotFoundError', 69, false],
    [GroupMaxSizeReachedError, 'GroupMaxSizeReachedError', 81, false],
    [FencedInstanceIdError, 'FencedInstanceIdError', 82, false],
  ]

  it.each(cases)(
    '%o carries its name, Kafka code and retriable flag, and comes back from its code',
    (Class, name, code, retriable) => {
      const error = new Class('msg')
      expect(error).toBeInstanceOf(TributaryError)
      expect([error.name, error.code, error.retriable]).toEqual([name, code, retriable])
      const decoded = errorFromCode(code, 'from the wire')
      expect(decoded).toBeInstanceOf(Class)
      expect(decoded.message).toBe('from the wire')
    },
  )

  it('a commit for a partition not held travels as ILLEGAL_GENERATION (Kafka has no code of its own)', () => {
    const error = new PartitionNotOwnedError('member m does not hold orders-3')
    expect(error).toBeInstanceOf(IllegalGenerationError)
    expect([error.name, error.code]).toEqual(['PartitionNotOwnedError', ErrorCode.ILLEGAL_GENERATION])
  })
})
