#!/usr/bin/env node
// The `tributary` command. Runs the compiled CLI when the workspace is built (`npm run build`),
// otherwise the TypeScript sources through tsx, in a child process that receives our signals.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const built = fileURLToPath(new URL('../dist/main.js', import.meta.url))
if (existsSync(built) && process.env.TRIBUTARY_FROM_SOURCE !== '1') {
  await import(built)
} else {
  const source = fileURLToPath(new URL('../src/main.ts', import.meta.url))
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', source, ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => {
    if (signal !== null) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
}
