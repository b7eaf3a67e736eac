// A proxied tool's result as its listed output schema says it comes: `structuredContent` wrapped as
// `{ result: … }` where the compiled schema wraps a root of another kind, and checked against that
// schema. A client that checks results (the MCP SDKs' clients, in both eras) refuses a whole result
// whose structured part misses the listed schema, and one with none at all: a server that breaks its
// own output schema works for such a client only where no output schema is listed, so the proxy stops
// listing it at the first miss.
import type { ProxiedTool } from '../../artifact/format'
import type { Validator } from '../compile/chooser'
import { isObject } from '../../util/object'
import { safely } from '../compile/chooser'
import { boundedTest } from '../compile/chooser-work'

/** A tool result as the proxy sees one on its way back. */
export interface ForwardedResult { structuredContent?: unknown, isError?: unknown, [key: string]: unknown }

/**
 * What shapes one tool's results as it is listed: wrapped where its output schema wraps them, checked
 * against that schema by a test built on the first structured result (no validator, or one that
 * cannot be built: nothing is checked). A result that misses it goes on as it came, and `missed` is
 * told (the proxy then stops listing the schema); where none is listed, a structured part that is not
 * an object, which no client takes, is left out.
 */
export function outputShaper(tool: ProxiedTool, validator: Validator | undefined, missed: () => void): (result: ForwardedResult) => ForwardedResult {
  const schema = tool.precomputed.tool.outputSchema
  const wrap = tool.precomputed.outputWrap
  let test: ((value: unknown) => boolean | 'unchecked') | null | undefined
  return (result) => {
    if (result.structuredContent === undefined || result.isError === true)
      return result
    if (schema === undefined) {
      if (isObject(result.structuredContent))
        return result
      const { structuredContent: _dropped, ...rest } = result
      return rest
    }
    const structured = wrap === undefined ? result.structuredContent : { [wrap]: result.structuredContent }
    if (validator !== undefined) {
      test ??= safely(() => boundedTest(validator, schema)) ?? null
      if (test !== null && (!isObject(structured) || safely(() => test!(structured)) === false))
        missed()
    }
    return wrap === undefined ? result : { ...result, structuredContent: structured }
  }
}

/** A tool as listed once its output schema is withdrawn: no output schema, nothing wrapped. */
export function withoutOutput(tool: ProxiedTool): ProxiedTool {
  const { outputSchema: _schema, ...listed } = tool.precomputed.tool
  const { outputWrap: _wrap, ...precomputed } = tool.precomputed
  return { ...tool, precomputed: { ...precomputed, tool: listed } }
}
