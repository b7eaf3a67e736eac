// What every flatmcp server and framework integration uses, with no MCP SDK: tools, `flat()`, the
// coercer, the precomputed-data registry and model-facing messages. Serving on the MCP SDK 1.x is
// `@flatmcp/runtime/sdk`, on 2.x `@flatmcp/runtime/server`; reading artifacts `@flatmcp/runtime/artifact`.
export { coerceArgs } from './coerce/coerce-args'
export { defineTool, isToolDefinition, TOOL_MARK } from './tool/define-tool'
export type { ElicitOptions, ElicitOutcome, ExtendContext, InferInput, InferOutput, ProgressUpdate, Register, StandardSchemaV1, ToolAnnotations, ToolCallContext, ToolDefinition, TraceContext } from './tool/define-tool'
export { attachFlat, flat, isFlatSchema } from './flat/flat'
export type { FlatData, FlatOptions, FlatSchema, JsonSchemaTarget } from './flat/flat'
export { toPrecomputed } from './artifact/precomputed'
export type { McpTool, PrecomputedTool } from './artifact/format'
export { attachCompiled, COMPILED, precomputedOf, registerArtifact, registerPrecomputed } from './precomputed/registry'
export { describeIssues } from './validate/messages'
export { closestName, namedWithGuess, unknownKeys } from './util/closest-name'
export type { CoercionPlan } from '@flatmcp/core'
export { attachForm, elicitForm, isElicitForm } from './elicit/ask'
export type { ElicitForm } from './elicit/ask'
export { nextRound, rebuildValue } from './elicit/answers'
export { InputRequired } from './elicit/replay'
export type { InputRequest } from './elicit/replay'
