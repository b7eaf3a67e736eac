import { Validator } from '@cfworker/json-schema'
import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/**
 * A JSON Schema validator a client runs on a model's arguments before the server sees them: the
 * advertised schema must accept every value the original accepts under each of these.
 */
export interface ClientValidator {
  name: string
  /** The schema compiled once, as a test of one value. */
  compile: (schema: object) => (value: unknown) => boolean
}

type AjvLike = { compile: (schema: object) => (value: unknown) => unknown, removeSchema: (schema: object) => unknown }

function ajvCompile(ajv: AjvLike): (schema: object) => (value: unknown) => boolean {
  return (schema) => {
    const validate = ajv.compile(schema)
    // The caller keeps the compiled function; ajv need not keep every schema it ever saw.
    ajv.removeSchema(schema)
    return value => validate(value) as boolean
  }
}

const plain = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false, logger: false })
// Gemini CLI's set-up: ajv-formats asserting, unknown keywords and formats let through.
const withFormats = new Ajv2020({ strictSchema: false, allowUnionTypes: true, logger: false })
;(addFormats as unknown as (ajv: unknown) => void)(withFormats)
// VS Code checks tool schemas and arguments with ajv's draft-07 build.
const draft7 = new Ajv({ strict: false, allowUnionTypes: true, validateFormats: false, logger: false })

export const CLIENT_VALIDATORS: readonly ClientValidator[] = [
  { name: 'ajv 2020', compile: ajvCompile(plain) },
  { name: 'ajv 2020 + ajv-formats', compile: ajvCompile(withFormats) },
  { name: 'ajv draft-07', compile: ajvCompile(draft7) },
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
  const validate = withFormats.compile(schema)
  withFormats.removeSchema(schema)
  return validate(value) ? [] : (validate.errors ?? []).map(error => error.instancePath)
}
