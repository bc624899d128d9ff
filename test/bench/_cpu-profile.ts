/**
 * Top self-time functions of a V8 `.cpuprofile` (what `node --cpu-prof` writes), for benchmarks
 * that report their hotspots. Code run through tsx is transformed, so the profile's line numbers
 * are those of the generated JavaScript; for our own .ts files the line shown is the function's
 * declaration found in the source by name (marked `~` when found that way).
 */
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export interface Hotspot {
  /** `name (file:line)` */
  where: string
  selfMs: number
  selfPct: number
}

const sources = new Map<string, string[] | undefined>()

function declarationLine(file: string, name: string): number | undefined {
  if (!sources.has(file)) {
    try {
      sources.set(file, readFileSync(file, 'utf8').split('\n'))
    } catch {
      sources.set(file, undefined)
    }
  }
  const lines = sources.get(file)
  const bare = name.replace(/^(get|set) /, '').replace(/^#/, '')
  if (lines === undefined || !/^[\w$]+$/.test(bare)) return undefined
  const declaration = new RegExp(
    `(function\\*?\\s+${bare}\\b|(^|\\s)(async\\s+|static\\s+|get\\s+|set\\s+|private\\s+|readonly\\s+|\\*)*#?${bare}\\s*(<[^>]*>)?\\(|\\b${bare}\\s*=\\s*(async\\s*)?(\\(|function))`,
  )
  const at = lines.findIndex((line) => declaration.test(line))
  return at === -1 ? undefined : at + 1
}

function location(frame: ProfileNode['callFrame']): string {
  if (frame.url === '') return frame.functionName === '' ? '(native)' : frame.functionName
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName
  let file = frame.url
  let line = `${frame.lineNumber + 1}`
  if (file.startsWith('file://')) {
    const path = fileURLToPath(file)
    file = relative(process.cwd(), path)
    if (/\.tsx?$/.test(path) && !file.startsWith('node_modules')) {
      const found = declarationLine(path, name)
      line = found === undefined ? `${line}(js)` : `~${found}`
    }
  }
  return `${name} (${file}:${line})`
}

/** The `top` functions by self time, with their share of all samples (idle included). */
export function topSelfTime(profileFile: string, top = 15): { totalMs: number; idlePct: number; hotspots: Hotspot[] } {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  let total = 0
  let idle = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]!)
    const us = profile.timeDeltas[i] ?? 0
    if (node === undefined) continue
    total += us
    if (node.callFrame.functionName === '(idle)') {
      idle += us
      continue
    }
    const key = location(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + us)
  }
  const hotspots = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, us]) => ({ where, selfMs: us / 1000, selfPct: (100 * us) / total }))
  return { totalMs: total / 1000, idlePct: (100 * idle) / total, hotspots }
}
