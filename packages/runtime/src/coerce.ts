// The coercer alone, with no dependencies: `import { coerceArgs } from '@flatmcp/runtime/coerce'`; and
// the reading of a call (a profile's inverse map, readings tried in turn) the server, `flat()` and the
// build's round-trip check share.
export { coerceArgs } from './coerce/coerce-args'
export { readScalar } from './coerce/scalars'
export type { ScalarReader } from './coerce/scalars'
export { inverseArgs, NULL_READINGS, readingsOf, RefusedArguments, repairsOf, triesOf } from './coerce/inverse-args'
export type { InversePlan, InverseTry, NullReading } from './coerce/inverse-args'
export type { CoercionPlan } from '@flatmcp/core'
export { readArguments, readingPlan, readInTurn } from './read/readings'
export type { ReadingPlan, Tried } from './read/readings'
export { planFeatures } from './coerce/plan-features'
export type { PlanFeatures } from './coerce/plan-features'
