// The MCP SDK's `_shims` (client and server) in the proxy's chunk: the same values as the SDK's Node
// shims, but its JSON Schema validator (ajv, about 300 KB) loaded on the first schema it checks, not
// at start: the proxy passes its own validator where it chooses, and many runs never check one.
import { createRequire } from 'node:module'
import process from 'node:process'

export { process }

/** Whether `fetch()` may fail for CORS: never in Node. */
export const CORS_IS_POSSIBLE = false

interface Validators {
  getValidator: (schema: unknown) => unknown
}

/** The SDK's own ajv validator, as its Node shims export it (its CommonJS build, so it loads in place). */
function sdkValidator(ajv: unknown): Validators {
  const shims = createRequire(import.meta.url)('@modelcontextprotocol/server/_shims') as { DefaultJsonSchemaValidator: new (ajv?: unknown) => Validators }
  return new shims.DefaultJsonSchemaValidator(ajv)
}

/** The SDK's default validator, its ajv loaded on first use. */
export class DefaultJsonSchemaValidator implements Validators {
  readonly #ajv: unknown
  #loaded: Validators | undefined

  constructor(ajv?: unknown) {
    this.#ajv = ajv
  }

  getValidator(schema: unknown): unknown {
    this.#loaded ??= sdkValidator(this.#ajv)
    return this.#loaded.getValidator(schema)
  }
}
