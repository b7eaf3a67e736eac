// The coercer alone, with no dependencies: `import { coerceArgs } from '@flatmcp/runtime/coerce'`.
export { coerceArgs } from './coerce/coerce-args'
export { readScalar } from './coerce/scalars'
export type { ScalarReader } from './coerce/scalars'
export { inverseArgs, NULL_READINGS, readingsOf, repairsOf, triesOf } from './coerce/inverse-args'
export type { InversePlan, InverseTry, NullReading } from './coerce/inverse-args'
export type { CoercionPlan } from '@flatmcp/core'
