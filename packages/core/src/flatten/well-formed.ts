import { isSchema, isSchemaObject } from '../json'

const KINDS = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'])
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value)
const isString = (value: unknown): boolean => typeof value === 'string'
const isSchemaList = (value: unknown): boolean => Array.isArray(value) && value.length > 0
const isSchemaMap = (value: unknown): boolean => isSchemaObject(value)

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
  $ref: isString,
  pattern: isString,
  format: isString,
  minLength: isNumber,
  maxLength: isNumber,
  minimum: isNumber,
  maximum: isNumber,
  exclusiveMinimum: isNumber,
  exclusiveMaximum: isNumber,
  multipleOf: isNumber,
  minItems: isNumber,
  maxItems: isNumber,
  minProperties: isNumber,
  maxProperties: isNumber,
}

/** False when a known keyword holds a value of the wrong shape (dropping it only widens the schema). */
export function isWellFormed(keyword: string, value: unknown): boolean {
  return !Object.prototype.hasOwnProperty.call(SHAPES, keyword) || SHAPES[keyword]!(value)
}
