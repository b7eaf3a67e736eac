/** A Standard Schema issue, with the extra fields zod 4 adds when it is the validator. */
export interface Issue {
  message: string
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>
  code?: string
  expected?: string
  keys?: string[]
  options?: unknown[]
  discriminator?: string
  note?: string
  /** For a union no branch matched: each branch's own issues. */
  errors?: Issue[][]
}

export type Validated = { ok: true, value: unknown } | { ok: false, issues: readonly Issue[] }

interface Validating {
  '~standard': { validate: (value: unknown) => ValidateResult | Promise<ValidateResult> }
}
type ValidateResult = { value: unknown, issues?: undefined } | { issues: readonly Issue[] }

/** Runs the author's own schema (any Standard Schema) on a value. */
export async function validate(schema: unknown, value: unknown): Promise<Validated> {
  const result = await (schema as Validating)['~standard'].validate(value)
  return result.issues ? { ok: false, issues: result.issues } : { ok: true, value: result.value }
}
