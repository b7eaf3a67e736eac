/** A problem with the proxy's set-up (a snapshot file, an upstream that cannot be reached): one line, exit 2. */
export class ProxySetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'ProxySetupError'
  }
}

/** What failed while a proxy (or a snapshot) read its upstream's list, as a set-up error naming where. */
export function listSetupError(error: unknown, where: string): ProxySetupError {
  if (error instanceof ProxySetupError)
    return error
  return new ProxySetupError(error instanceof TypeError ? error.message : `the tools of ${where} could not be read: ${(error as Error).message}`, { cause: error })
}
