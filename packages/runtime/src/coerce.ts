// The coercer alone, with no dependencies: `import { coerceArgs } from '@flatmcp/runtime/coerce'`.
export { coerceArgs } from './coerce/coerce-args'
export type { CoercionPlan } from '@flatmcp/core'
