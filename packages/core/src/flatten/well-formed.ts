import { hasOwn, isSchema, isSchemaObject } from '../json'

const KINDS = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'])
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value)
const isString = (value: unknown): boolean => typeof value === 'string'
const isSchemaList = (value: unknown): boolean => Array.isArray(value) && value.length > 0
const isSchemaMap = (value: unknown): boolean => isSchemaObject(value)
const isBoolean = (value: unknown): boolean => typeof value === 'boolean'
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0
const isStringList = (value: unknown): boolean => Array.isArray(value) && value.every(isString)

/** Whether `pattern` compiles as a regular expression, with the given flags. */
export function compiles(pattern: string, flags: string): boolean {
  try {
    void new RegExp(pattern, flags)
    return true
  }
  catch {
    return false
  }
}

/** JSON Schema validators (ajv among them) compile patterns in unicode mode: a pattern must too. */
function isPattern(value: unknown): boolean {
  return isString(value) && compiles(value as string, 'u')
}

/** A pattern only JavaScript's legacy mode reads (`a\-b`): the author meant it, a validator cannot. */
export function isLegacyPattern(value: unknown): boolean {
  return isString(value) && !compiles(value as string, 'u') && compiles(value as string, '')
}

/** What a keyword's value must look like for the keyword to mean anything. */
const SHAPES: Record<string, (value: unknown) => boolean> = {
  type: value => (isString(value) && KINDS.has(value as string))
    || (Array.isArray(value) && value.length > 0 && value.every(kind => isString(kind) && KINDS.has(kind))),
  enum: value => Array.isArray(value) && value.length > 0,
  required: value => Array.isArray(value) && value.every(isString),
  properties: isSchemaMap,
  patternProperties: isSchemaMap,
  dependentSchemas: isSchemaMap,
  $defs: isSchemaMap,
  definitions: isSchemaMap,
  anyOf: isSchemaList,
  oneOf: isSchemaList,
  allOf: isSchemaList,
  prefixItems: isSchemaList,
  items: value => isSchema(value) || isSchemaList(value),
  additionalProperties: isSchema,
  propertyNames: isSchema,
  not: isSchema,
  additionalItems: isSchema,
  unevaluatedItems: isSchema,
  unevaluatedProperties: isSchema,
  contains: isSchema,
  if: isSchema,
  then: isSchema,
  else: isSchema,
  contentSchema: isSchema,
  dependentRequired: value => isSchemaObject(value) && Object.values(value).every(isStringList),
  dependencies: value => isSchemaObject(value) && Object.values(value).every(entry => isSchema(entry) || isStringList(entry)),
  $ref: isString,
  $id: isString,
  $anchor: isString,
  $comment: isString,
  $schema: isString,
  pattern: isPattern,
  format: isString,
  title: isString,
  description: isString,
  examples: Array.isArray,
  deprecated: isBoolean,
  readOnly: isBoolean,
  writeOnly: isBoolean,
  uniqueItems: isBoolean,
  minLength: isCount,
  maxLength: isCount,
  minimum: isNumber,
  maximum: isNumber,
  exclusiveMinimum: isNumber,
  exclusiveMaximum: isNumber,
  multipleOf: value => isNumber(value) && (value as number) > 0,
  minItems: isCount,
  maxItems: isCount,
  minProperties: isCount,
  maxProperties: isCount,
  minContains: isCount,
  maxContains: isCount,
}

/** False when a known keyword holds a value of the wrong shape (dropping it only widens the schema). */
export function isWellFormed(keyword: string, value: unknown): boolean {
  return !hasOwn(SHAPES, keyword) || SHAPES[keyword]!(value)
}
