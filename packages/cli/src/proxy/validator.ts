// The validator the proxy and snapshot commands run: ajv 2020 with its formats, loaded when first needed.
import type { Ajv2020 } from 'ajv/dist/2020.js'
import { createRequire } from 'node:module'

/**
 * The proxy's validator, ajv with its formats checked, as the clients that check results do: the
 * upstream's own schema as a chooser of readings (the runtime cuts the costly keywords, formats
 * among them, first), and a listed output schema as the test of a result's structured part.
 */
export function ajvValidator(): (schema: object) => (value: unknown) => boolean {
  // Loaded on the first call that needs it, not before the proxy answers its client (about 60 ms).
  let made: Ajv2020 | undefined
  const ajvOf = (): Ajv2020 => {
    if (!made) {
      const load = createRequire(import.meta.url)
      made = new (load('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020({ strict: false, allowUnionTypes: true, logger: false })
      ;(load('ajv-formats') as { default: (ajv: unknown) => void }).default(made)
    }
    return made
  }
  return (schema) => {
    const ajv = ajvOf()
    const validate = ajv.compile(schema)
    ajv.removeSchema(schema)
    return value => validate(value) as boolean
  }
}
