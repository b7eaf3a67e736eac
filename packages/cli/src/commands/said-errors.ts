// The errors `flatmcp` says in one line, without a stack: each command's own, by class.
/**
 * Each command's own errors, said in one line. The commands load lazily, so each class is loaded
 * only once an error of its name is heard (its module, which threw it, has loaded already) and the
 * error must be one of it: another error of that name is said with its stack.
 */
type ErrorClass = abstract new (...args: never[]) => Error
const SAID_ERRORS: Readonly<Record<string, () => Promise<ErrorClass[]>>> = {
  ProbeLoadError: async () => [(await import('../probe/findings')).ProbeLoadError],
  BuildError: async () => [(await import('../tool-modules/build-artifacts')).BuildError],
  // Two classes of one name: the proxy's bundled chunk has its own copy of the runtime's.
  ProxySetupError: async () => [(await import('#proxy/serve')).ProxySetupError, (await import('@flatmcp/runtime/proxy')).ProxySetupError],
  InstallError: async () => [(await import('../install/rewrite')).InstallError],
}

/** Whether `error` is one of a command's own, said in one line (exit 2, or 1 where it says so). */
export async function saidInOneLine(error: unknown): Promise<boolean> {
  if (!(error instanceof Error) || !Object.hasOwn(SAID_ERRORS, error.name))
    return false
  return (await SAID_ERRORS[error.name]!()).some(kind => error instanceof kind)
}

/** The exit code of an error a command ends with: 1 where it says so (findings), else 2. */
export const exitCodeOf = (error: unknown): number => error instanceof Error && (error as { exitCode?: unknown }).exitCode === 1 ? 1 : 2
