// The validator the proxy and snapshot commands run: the proxy's ajv set-up (2020-12, its formats
// checked), loaded on the first call that needs it, not before the proxy answers its client.
import { ajvCompile } from 'unplugin-flatmcp/internal/shared'

/**
 * The proxy's validator, ajv with its formats checked, as the clients that check results do: the
 * upstream's own schema as a chooser of readings (the runtime cuts the costly keywords, formats
 * among them, first), and a listed output schema as the test of a result's structured part.
 */
export function ajvValidator(): (schema: object) => (value: unknown) => boolean {
  return (schema) => {
    const validate = ajvCompile('proxy', schema)
    return value => validate(value) as boolean
  }
}
