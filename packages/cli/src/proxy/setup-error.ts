/** A problem with the proxy's set-up (a snapshot file, an upstream that cannot be reached): one line, exit 2. */
export class ProxySetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'ProxySetupError'
  }
}
