export { defineTool, isToolDefinition, TOOL_MARK } from './define-tool'
export type { InferInput, InferOutput, StandardSchemaV1, ToolAnnotations, ToolCallContext, ToolDefinition } from './define-tool'
