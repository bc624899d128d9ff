/** The connection banner: connecting, online (and as what), offline, or a failure the user can act on. */
export type ConnectionState = 'connecting' | 'online' | 'offline' | 'error'

export function setStatus(el: HTMLElement, state: ConnectionState, message: string): void {
  el.dataset.state = state
  el.textContent = message
  el.title = message
}
