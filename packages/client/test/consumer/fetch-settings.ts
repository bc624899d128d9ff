import type { FetchSettings } from '../../src/consumer/fetcher.ts'

/** Fetch settings for the fetch-loop tests: long polls as long as a test, 1 MiB per fetch. */
export function testFetchSettings(maxInFlightPerLeader: number): FetchSettings {
  return {
    maxWaitTimeInMs: 30_000,
    minBytes: 1,
    maxBytes: 1 << 20,
    maxBytesPerPartition: 1 << 20,
    maxInFlightPerLeader,
    autoOffsetReset: undefined,
  }
}
