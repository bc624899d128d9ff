/**
 * Serves the built web app (apps/web/dist) read-only: a request path maps to a file under the
 * root or to nothing. Paths are decoded once, normalized, and must stay under the root after
 * resolution (symlinks included), so `..`, encoded `%2e%2e`, backslashes and NUL bytes never
 * reach a file outside it.
 */
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/** Longest request path we look at; a longer one is a 414, not a file-system lookup. */
const MAX_PATH_LENGTH = 1024

export function mimeType(file: string): string {
  return MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

export type ResolvedPath = { kind: 'file'; file: string } | { kind: 'bad-request' | 'too-long' | 'not-found' }

/**
 * The file under `root` that `urlPath` (the path part of a request URL, still percent-encoded)
 * names, or why there is none. `/` is `index.html`.
 */
export async function resolveStaticPath(root: string, urlPath: string): Promise<ResolvedPath> {
  if (urlPath.length > MAX_PATH_LENGTH) return { kind: 'too-long' }
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return { kind: 'bad-request' }
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad-request' }
  const relative = decoded === '/' ? 'index.html' : decoded.slice(1)
  const base = resolve(root)
  const candidate = resolve(base, relative)
  if (candidate !== base && !candidate.startsWith(base + sep)) return { kind: 'not-found' }
  try {
    // A symlink inside the root must not lead out of it either.
    const [real, realBase] = await Promise.all([realpath(candidate), realpath(base)])
    if (!real.startsWith(realBase + sep)) return { kind: 'not-found' }
    const info = await stat(real)
    if (info.isDirectory()) {
      const index = join(real, 'index.html')
      return (await stat(index).catch(() => undefined))?.isFile() === true
        ? { kind: 'file', file: index }
        : { kind: 'not-found' }
    }
    return info.isFile() ? { kind: 'file', file: real } : { kind: 'not-found' }
  } catch {
    return { kind: 'not-found' }
  }
}

/**
 * Answers a GET or HEAD for a static file. Vite names everything under `assets/` by content
 * hash, so those may be cached for good; the rest (index.html) is revalidated every time so a
 * rebuilt app is picked up on reload.
 */
export async function serveStatic(
  root: string,
  urlPath: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const found = await resolveStaticPath(root, urlPath)
  if (found.kind !== 'file') {
    const status = found.kind === 'bad-request' ? 400 : found.kind === 'too-long' ? 414 : 404
    const text = status === 404 ? notFoundText(root, urlPath) : 'bad request path\n'
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text)
    return
  }
  const info = await stat(found.file)
  res.writeHead(200, {
    'content-type': mimeType(found.file),
    'content-length': info.size,
    'cache-control': found.file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  const stream = createReadStream(found.file)
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}

function notFoundText(root: string, urlPath: string): string {
  if (urlPath === '/' || urlPath === '/index.html') {
    return `the web app is not built (no ${join(root, 'index.html')}): run 'npm start' from the repository, or 'npm run build -w apps/web'\n`
  }
  return 'not found\n'
}
