import { StreamState } from '@libp2p/yamux/stream'
import { describe, expect, it } from 'vitest'
import { patchStream } from '../../src/node/yamux-window-updates.js'

/** The fields of a yamux stream the patch reads, and a count of the updates the library would send. */
function fakeStream(state: StreamState, recvWindow: number, recvWindowCapacity: number) {
  const stream = {
    state,
    recvWindow,
    recvWindowCapacity,
    sent: 0,
    sendWindowUpdate(): void {
      this.sent++
      this.recvWindowCapacity = this.recvWindow
    },
  }
  patchStream(stream)
  return stream
}

describe('node > yamux window updates', () => {
  it('holds an established stream’s update until half its receive window is used', () => {
    const stream = fakeStream(StreamState.Established, 256 * 1024, 256 * 1024 - 100)
    stream.sendWindowUpdate()
    expect(stream.sent).toBe(0)
    stream.recvWindowCapacity = 128 * 1024
    stream.sendWindowUpdate()
    expect(stream.sent).toBe(1)
    expect(stream.recvWindowCapacity).toBe(256 * 1024)
  })

  it('always lets the library run while a SYN or ACK is due, or when paused', () => {
    for (const state of [StreamState.Init, StreamState.SYNReceived, StreamState.SYNSent, StreamState.Paused]) {
      const stream = fakeStream(state, 256 * 1024, 256 * 1024)
      stream.sendWindowUpdate()
      expect(stream.sent, StreamState[state]).toBe(1)
    }
  })

  it('leaves a stream without the expected fields as it is', () => {
    const original = (): void => {}
    const stream = { sendWindowUpdate: original }
    patchStream(stream)
    expect(stream.sendWindowUpdate).toBe(original)
  })
})
