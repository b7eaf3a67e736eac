import { Validator } from '@cfworker/json-schema'
import { ajvCompile } from './ajv'

/**
 * A JSON Schema validator a client runs on a model's arguments before the server sees them: the
 * advertised schema must accept every value the original accepts under each of these.
 */
export interface ClientValidator {
  name: string
  /** The schema compiled once, as a test of one value. */
  compile: (schema: object) => (value: unknown) => boolean
}

/** A set-up's test of a value, from the schema compiled once. */
const ajvTest = (setup: Parameters<typeof ajvCompile>[0]) => (schema: object): ((value: unknown) => boolean) => {
  const validate = ajvCompile(setup, schema)
  return value => validate(value) as boolean
}

export const CLIENT_VALIDATORS: readonly ClientValidator[] = [
  { name: 'ajv 2020', compile: ajvTest('ajv 2020') },
  // Gemini CLI's set-up.
  { name: 'ajv 2020 + ajv-formats', compile: ajvTest('ajv 2020 + ajv-formats') },
  // VS Code checks tool schemas and arguments with ajv's draft-07 build.
  { name: 'ajv draft-07', compile: ajvTest('ajv draft-07') },
  // LangChain's MCP adapters validate with @cfworker/json-schema, formats asserted.
  { name: '@cfworker/json-schema', compile: (schema) => {
    const validator = new Validator(schema, '2020-12', true)
    return value => validator.validate(value).valid
  } },
]

/**
 * One schema compiled by every client validator: which of them reject a value. A validator that
 * throws on it rejects it, as its client fails: ajv's `enum` check throws on an object whose own
 * `toString` is not a function (fast-deep-equal calls it).
 */
export function clientCheck(schema: object): (value: unknown) => string[] {
  const compiled = CLIENT_VALIDATORS.map(v => ({ name: v.name, test: v.compile(schema) }))
  const passes = (test: (value: unknown) => boolean, value: unknown): boolean => {
    try {
      return test(value)
    }
    catch {
      return false
    }
  }
  return value => compiled.filter(c => !passes(c.test, value)).map(c => c.name)
}

/** Where in a value ajv (with formats, the strictest of the matrix) finds fault, as argument paths. */
export function rejectionPaths(schema: object, value: unknown): string[] {
  const validate = ajvCompile('ajv 2020 + ajv-formats', schema)
  return validate(value) ? [] : (validate.errors ?? []).map(error => error.instancePath)
}
