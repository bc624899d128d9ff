/**
 * `npm run bench -- <name>`: runs test/bench/<name>.ts, which prints its figures next to this
 * machine's own limit measured in the same run and writes bench-results/<name>.json.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'report.ts'].includes(f) && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort()

const name = process.argv[2]
if (name === undefined || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name> [options]\navailable: ${available.join(', ')}`)
  process.exit(2)
}
const mod = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<void> }
await mod.default(process.argv.slice(3))
