/**
 * Custom Vitest browser commands: server-side functions a browser test calls through
 * `commands` from 'vitest/browser'. They get the Playwright page that hosts the test.
 */
import type {} from '@vitest/browser-playwright'
import type { CDPSession } from 'playwright-core'
import type { BrowserCommand } from 'vitest/node'

/**
 * Chromium drops a DevTools quota override when the session that set it detaches, so one
 * session per page is kept open for the life of the page.
 */
const sessions = new WeakMap<object, Promise<CDPSession>>()

/**
 * Overrides the storage quota of the test frame's origin (`null` restores the real one), via
 * CDP `Storage.overrideQuotaForOrigin`, so tests can hit `QuotaExceededError` for real.
 * Chromium 156 enforces it against values it stores inline (under 64 KiB); larger values go to
 * blob files, which it did not count against the override.
 */
export const setStorageQuota: BrowserCommand<[quotaBytes: number | null]> = async (context, quotaBytes) => {
  const { page } = context
  const origin = new URL((await context.frame()).url()).origin
  let session = sessions.get(page)
  if (session === undefined) {
    session = page.context().newCDPSession(page)
    sessions.set(page, session)
  }
  const cdp = await session
  await cdp.send('Storage.overrideQuotaForOrigin', quotaBytes === null ? { origin } : { origin, quotaSize: quotaBytes })
}
