// Node's own modules where the runtime is Node (`process.getBuiltinModule`, Node 20.16+), else none:
// the runtime also runs in workers, Deno and Bun, so it imports no `node:` module at its top.

/** The Node module `id`, or `undefined` outside Node. */
export function nodeBuiltin<T>(id: `node:${string}`): T | undefined {
  return (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(id) as T | undefined
}
