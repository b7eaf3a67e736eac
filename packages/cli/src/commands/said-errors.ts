// The errors `flatmcp` says in one line, without a stack: each command's own, by class.
/**
 * Each command's own errors, said in one line. The commands load lazily, so each class is loaded
 * only once an error of its name is heard (its module, which threw it, has loaded already) and the
 * error must be one of it: another error of that name is said with its stack.
 */
const SAID_ERRORS: Readonly<Record<string, () => Promise<abstract new (...args: never[]) => Error>>> = {
  ProbeLoadError: async () => (await import('../probe/findings')).ProbeLoadError,
  BuildError: async () => (await import('../tool-modules/build-artifacts')).BuildError,
  ProxySetupError: async () => (await import('@flatmcp/runtime/proxy')).ProxySetupError,
  InstallError: async () => (await import('../install/rewrite')).InstallError,
}

/** Whether `error` is one of a command's own, said in one line (exit 2, or 1 where it says so). */
export const saidInOneLine = async (error: unknown): Promise<boolean> => error instanceof Error && Object.hasOwn(SAID_ERRORS, error.name) && error instanceof await SAID_ERRORS[error.name]!()

/** The exit code of an error a command ends with: 1 where it says so (findings), else 2. */
export const exitCodeOf = (error: unknown): number => error instanceof Error && (error as { exitCode?: unknown }).exitCode === 1 ? 1 : 2
