// A tool as describe_tools gives it: as listed, its schemas written without `$ref` or `$defs`. Gemini
// 3.x refuses either inside a function response, and a describe_tools answer is one; the strict
// profiles list repeated shapes once in `$defs`, and an upstream's output schema (or a tool served as
// it is) may hold its own. Written out for every client: a model reads the shape where it stands, and
// what it costs is measured in docs/proxy.md. A recursive `$ref` (or one past the bound) is not
// written out again: a node of its type says what stood there, so an answer stays bounded.
import type { McpTool } from '../artifact/format'
import { withoutReferences } from '@flatmcp/core'

/** The most characters of JSON the written-out definitions may add to one schema (about 8,000 tokens, one answer's budget). */
export const INLINE_BUDGET = 32_768

const described = new WeakMap<McpTool, McpTool>()

/** `tool` with its input and output schemas free of `$ref` and `$defs` (made once per listed tool). */
export function describedTool(tool: McpTool): McpTool {
  let made = described.get(tool)
  if (!made) {
    const { inputSchema, outputSchema } = tool
    made = {
      ...tool,
      inputSchema: withoutReferences(inputSchema, INLINE_BUDGET).schema as McpTool['inputSchema'],
      ...(outputSchema === undefined ? {} : { outputSchema: withoutReferences(outputSchema, INLINE_BUDGET).schema as McpTool['outputSchema'] }),
    }
    described.set(tool, made)
  }
  return made
}
