/**
 * Builds apps/web into apps/web/dist unless dist is up to date with its inputs: the app's own
 * sources and config, and the sources of the workspace packages it bundles. `npm start` and the
 * page tests call it, so a fresh clone needs no extra build command, and an unchanged tree costs
 * one walk over the inputs (no build).
 *
 * Up to date means: dist/.inputs holds the fingerprint (path, size, mtime of every input) it
 * was built from. Builds are serialized across processes by a lock directory and written to a
 * temporary directory that replaces dist only when complete, so a peer serving dist (or a
 * parallel test) never sees half a build.
 *
 * Run directly: `node --import tsx apps/web/scripts/ensure-built.ts [--force]`.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const webDir = fileURLToPath(new URL('..', import.meta.url))
const repoDir = join(webDir, '..', '..')
export const WEB_DIST = join(webDir, 'dist')
const STAMP = '.inputs'
const LOCK = join(webDir, '.build-lock')
/** A lock older than this belongs to a build that died; a real build takes well under it. */
const STALE_LOCK_MS = 5 * 60_000
/** Bounds the input walk: the app plus the packages it bundles are a few hundred files. */
const MAX_INPUT_FILES = 20_000

/** The workspace packages the page bundles (client and what it imports). */
const BUNDLED_PACKAGES = ['wire', 'log', 'mesh', 'groups', 'client']

function inputRoots(): string[] {
  return [
    join(webDir, 'src'),
    join(webDir, 'index.html'),
    join(webDir, 'vite.config.ts'),
    join(webDir, 'package.json'),
    join(repoDir, 'package-lock.json'),
    ...BUNDLED_PACKAGES.flatMap((p) => [
      join(repoDir, 'packages', p, 'src'),
      join(repoDir, 'packages', p, 'package.json'),
    ]),
  ]
}

/** Hash of (path, size, mtime) of every input file. */
export function inputsFingerprint(): Promise<string> {
  return fingerprint(inputRoots(), repoDir)
}

/** Hash of (path relative to `base`, size, mtime) of every file under `roots` (node_modules skipped). */
export async function fingerprint(roots: string[], base: string): Promise<string> {
  const entries: string[] = []
  const walk = async (path: string): Promise<void> => {
    if (entries.length > MAX_INPUT_FILES) throw new Error(`more than ${MAX_INPUT_FILES} input files under ${base}`)
    const info = await stat(path).catch(() => undefined)
    if (info === undefined) return
    if (info.isDirectory()) {
      const names = (await readdir(path)).filter((n) => n !== 'node_modules').sort()
      for (const name of names) await walk(join(path, name))
      return
    }
    entries.push(`${relative(base, path)}\t${info.size}\t${info.mtimeMs}`)
  }
  for (const root of roots) await walk(root)
  return createHash('sha256').update(entries.join('\n')).digest('hex')
}

export async function isWebBuiltAndCurrent(): Promise<boolean> {
  const [stamp, fingerprint] = await Promise.all([
    readFile(join(WEB_DIST, STAMP), 'utf8').catch(() => undefined),
    inputsFingerprint(),
  ])
  return stamp === fingerprint && (await stat(join(WEB_DIST, 'index.html')).catch(() => undefined)) !== undefined
}

export interface EnsureOptions {
  force?: boolean
  /** How long to wait for another process's build. Default 5 minutes. */
  timeoutMs?: number
  /** Progress lines (what is built and why); silent by default. */
  log?: (line: string) => void
}

/** Resolves once apps/web/dist matches its inputs, building it if needed. Returns whether it built. */
export async function ensureWebBuilt(options: EnsureOptions = {}): Promise<boolean> {
  if (options.force !== true && (await isWebBuiltAndCurrent())) return false
  const deadline = Date.now() + (options.timeoutMs ?? STALE_LOCK_MS)
  await acquireLock(deadline)
  try {
    // Another process may have built it while we waited for the lock.
    const fingerprint = await inputsFingerprint()
    if (options.force !== true && (await isWebBuiltAndCurrent())) return false
    options.log?.(`building the web app (${relative(repoDir, webDir)}) into ${relative(repoDir, WEB_DIST)}`)
    const tmp = join(webDir, `dist.${process.pid}.tmp`)
    await rm(tmp, { recursive: true, force: true })
    const { build } = await import('vite')
    await build({
      root: webDir,
      configFile: join(webDir, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: tmp, emptyOutDir: true },
    })
    await writeFile(join(tmp, STAMP), fingerprint)
    await rm(WEB_DIST, { recursive: true, force: true })
    await rename(tmp, WEB_DIST)
    return true
  } finally {
    await rm(LOCK, { recursive: true, force: true })
  }
}

async function acquireLock(deadline: number): Promise<void> {
  for (;;) {
    try {
      await mkdir(LOCK)
      await writeFile(join(LOCK, 'pid'), String(process.pid))
      return
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    const info = await stat(LOCK).catch(() => undefined)
    const owner = Number(await readFile(join(LOCK, 'pid'), 'utf8').catch(() => 'NaN'))
    if (info !== undefined && (Date.now() - info.mtimeMs > STALE_LOCK_MS || (owner > 0 && !alive(owner)))) {
      await rm(LOCK, { recursive: true, force: true })
      continue
    }
    if (Date.now() >= deadline) throw new Error(`timed out waiting for another build of the web app (lock ${LOCK})`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force')
  ensureWebBuilt({ force, log: (line) => process.stderr.write(`${line}\n`) }).then(
    (built) => {
      if (!built) process.stderr.write('web app is up to date (apps/web/dist)\n')
    },
    (err: unknown) => {
      process.stderr.write(`could not build the web app: ${err instanceof Error ? err.message : String(err)}\n`)
      process.exitCode = 1
    },
  )
}
