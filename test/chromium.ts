/**
 * How tests and benchmarks launch Debian's Chromium (never a downloaded browser).
 * The flags keep it off the network: this machine only allows loopback.
 */
import { existsSync } from 'node:fs'

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  // WebRTC between browsers on loopback gathers no ICE candidates without it (PLATFORM.md).
  '--allow-loopback-in-peer-connection',
]

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}: install it with 'apt-get install -y chromium' (or set CHROMIUM_PATH)`,
    )
  }
  return path
}
