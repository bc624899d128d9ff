/**
 * `npm run bench -- browser --profile DIR`: a V8 CPU profile of the page doing a step's work,
 * taken over CDP (Profiler domain) while the step runs, written as DIR/<step>.cpuprofile (open it
 * in Chrome DevTools) and summed up as its top self-time functions. IndexedDB and the network
 * run in Chromium's browser process, not the page's: time the page spends waiting on them shows
 * as idle here.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { topSelfTime } from './_cpu-profile.ts'

/** Sampling interval, µs (V8's default is 1,000). */
const SAMPLING_US = 250

/** Runs `step` with the page's CPU profiled into `dir`/<name>.cpuprofile; without `dir`, just runs it. */
export async function profiled<T>(
  dir: string | undefined,
  name: string,
  page: Page,
  step: () => Promise<T>,
): Promise<T> {
  if (dir === undefined) return step()
  const cdp = await page.context().newCDPSession(page)
  try {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US })
    await cdp.send('Profiler.start')
    const result = await step()
    const { profile } = await cdp.send('Profiler.stop')
    const file = join(dir, `${name}.cpuprofile`)
    writeFileSync(file, JSON.stringify(profile))
    const { totalMs, idlePct, hotspots } = topSelfTime(file, 12)
    const lines = hotspots.map(
      (h) => `  ${h.selfPct.toFixed(1).padStart(5)}%  ${h.selfMs.toFixed(0).padStart(6)} ms  ${h.where}`,
    )
    console.log(
      `\n${name} page (${file}): ${totalMs.toFixed(0)} ms sampled, ${idlePct.toFixed(0)}% idle; top self time\n${lines.join('\n')}`,
    )
    return result
  } finally {
    await cdp.detach().catch(() => {})
  }
}
