// The ajv set-ups flatmcp judges values with, each made once, when first used (ajv and its formats
// take about 60 ms to load: the proxy answers its client before): the clients' validators the build
// and the probe check advertised schemas under, and the proxy's own, which picks a call's reading and
// tests a listed output.
import type { Ajv as AjvDraft7, ValidateFunction } from 'ajv'
import type { Ajv2020 } from 'ajv/dist/2020.js'
import { createRequire } from 'node:module'

/** ajv as a client sets it up: 2020-12, 2020-12 asserting formats (Gemini CLI's), draft-07 (VS Code's); or the proxy's (2020-12, formats asserted, nothing strict). */
export type AjvSetup = 'ajv 2020' | 'ajv 2020 + ajv-formats' | 'ajv draft-07' | 'proxy'

type AnyAjv = AjvDraft7 | Ajv2020

const made = new Map<AjvSetup, AnyAjv>()

function make(setup: AjvSetup): AnyAjv {
  const load = createRequire(import.meta.url)
  const { Ajv2020: Ajv2020Class } = load('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }
  const formats = (ajv: AnyAjv): AnyAjv => ((load('ajv-formats') as { default: (ajv: unknown) => void }).default(ajv), ajv)
  if (setup === 'ajv draft-07')
    return new (load('ajv') as { Ajv: typeof AjvDraft7 }).Ajv({ strict: false, allowUnionTypes: true, validateFormats: false, logger: false })
  if (setup === 'ajv 2020')
    return new Ajv2020Class({ strict: false, allowUnionTypes: true, validateFormats: false, logger: false })
  // Gemini CLI's set-up: ajv-formats asserting, unknown keywords and formats let through.
  if (setup === 'ajv 2020 + ajv-formats')
    return formats(new Ajv2020Class({ strictSchema: false, allowUnionTypes: true, logger: false }))
  return formats(new Ajv2020Class({ strict: false, allowUnionTypes: true, logger: false }))
}

/**
 * A schema compiled by one set-up, as a test of a value (with ajv's `errors` after a failed one).
 * The set-up keeps no schema it compiled: the caller keeps the function. A schema ajv cannot compile
 * throws, and ajv keeps it (a second compile of the same object then takes it as it is, as before).
 */
export function ajvCompile(setup: AjvSetup, schema: object): ValidateFunction {
  let ajv = made.get(setup)
  if (!ajv) {
    ajv = make(setup)
    made.set(setup, ajv)
  }
  const validate = ajv.compile(schema)
  ajv.removeSchema(schema)
  return validate
}
