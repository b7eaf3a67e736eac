// The Standard Schema types the runtime speaks (zod 4, valibot, arktype… implement them), and the mark
// flatmcp puts on a schema that only chooses among readings of a call for a parser elsewhere.
import type { PresetName } from '@flatmcp/core'

/** The part of the Standard Schema interface (zod 4, valibot, arktype…) that carries static types. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly types?: { readonly input: Input, readonly output: Output } | undefined
  }
}

export type InferInput<S> = S extends StandardSchemaV1<infer I, unknown> ? I : never
export type InferOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : never

/**
 * An upstream's JSON Schema as a proxied tool's input: its `validate` only picks which reading of a
 * call goes on (never refuses one), for the upstream's own parser decides; `'~flatmcp'` says so, and
 * names the preset its JSON Schema is read with (the compiler's front end reads that too).
 */
export interface ChooserSchema {
  readonly '~standard': StandardSchemaV1['~standard'] & {
    readonly validate: (value: unknown) => { value: unknown } | { issues: readonly { message: string }[] }
    readonly jsonSchema: { readonly input: () => unknown, readonly output: () => unknown }
  }
  readonly '~flatmcp': {
    readonly preset: PresetName
    readonly chooser: true
    /**
     * Makes the test (loads the validator, compiles the schema) once, before a call's readings are
     * timed: a set-up that takes a busy process over the reading budget is not the cost of a reading.
     */
    readonly prepare: () => void
  }
}

/** Whether a tool's input schema only chooses among readings of a call (a proxied tool's). */
export function isChooserSchema(schema: unknown): schema is ChooserSchema {
  return (schema as { '~flatmcp'?: { chooser?: unknown } } | undefined)?.['~flatmcp']?.chooser === true
}
