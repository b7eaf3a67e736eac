// What every flatmcp server and framework integration uses, with no MCP SDK: tools, `flat()`, the
// coercer, the precomputed-data registry and model-facing messages. Serving on the MCP SDK 1.x is
// `@flatmcp/runtime/sdk`.
export { coerceArgs } from './coerce/coerce-args'
export { defineTool, isToolDefinition, TOOL_MARK } from './define-tool'
export type { ExtendContext, InferInput, InferOutput, ProgressUpdate, Register, StandardSchemaV1, ToolAnnotations, ToolCallContext, ToolDefinition } from './define-tool'
export { attachFlat, flat, isFlatSchema } from './flat/flat'
export type { FlatData, FlatOptions, FlatSchema, JsonSchemaTarget } from './flat/flat'
export { attachCompiled, COMPILED, precomputedOf, registerArtifact, registerPrecomputed, toPrecomputed } from './serve/compiled'
export type { McpTool, PrecomputedTool } from './serve/compiled'
export { describeIssues } from './validate/messages'
export type { CoercionPlan } from '@flatmcp/core'
export { attachForm, elicitForm, isElicitForm } from './elicit/ask'
export type { ElicitForm, ElicitOptions, ElicitOutcome } from './elicit/ask'
export { nextRound, rebuildValue } from './elicit/answers'
