// The proxy's OpenTelemetry context manager. The SDK's own (AsyncLocalStorage) makes a context
// follow a call across its awaits, which on Node 20 puts a hook on every promise the process makes:
// about 0.04 ms of CPU a proxied call (CHANGELOG, issue 70). The proxy needs none of it: it runs no
// instrumentation, and hands each request's context to the spans under it (a call's `trace`). Here
// a context holds within a synchronous `with` only, and is the root outside one.
import type { Context, ContextManager } from '@opentelemetry/api'

export function callContextManager(root: Context): ContextManager {
  let current = root
  const manager: ContextManager = {
    active: () => current,
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
      const before = current
      current = context
      try {
        return fn.call(thisArg, ...args)
      }
      finally {
        current = before
      }
    },
    bind: <T>(_context: Context, target: T): T => target,
    enable: () => manager,
    disable: () => {
      current = root
      return manager
    },
  }
  return manager
}
