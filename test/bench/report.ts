/** Shared output of benchmarks: an aligned table on stdout and bench-results/<name>.json. */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'

export interface Row {
  metric: string
  value: number
  unit: string
  /** What the figure is compared with, e.g. a target or this machine's limit. */
  reference?: string
}

export function printTable(title: string, rows: readonly Row[]): void {
  const fmt = (n: number): string =>
    Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 })
  const w0 = Math.max(...rows.map((r) => r.metric.length), 6)
  const w1 = Math.max(...rows.map((r) => fmt(r.value).length), 5)
  const w2 = Math.max(...rows.map((r) => r.unit.length), 4)
  console.log(`\n${title}`)
  console.log(`${'metric'.padEnd(w0)}  ${'value'.padStart(w1)}  ${'unit'.padEnd(w2)}  reference`)
  for (const r of rows) {
    console.log(`${r.metric.padEnd(w0)}  ${fmt(r.value).padStart(w1)}  ${r.unit.padEnd(w2)}  ${r.reference ?? ''}`)
  }
}

export function writeResults(name: string, figures: Record<string, number | string | boolean>): string {
  const dir = join(process.cwd(), 'bench-results')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${name}.json`)
  const body = {
    ...figures,
    benchmark: name,
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    total_memory_mb: Math.round(os.totalmem() / 2 ** 20),
  }
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`)
  console.log(`\nwrote ${file}`)
  return file
}
