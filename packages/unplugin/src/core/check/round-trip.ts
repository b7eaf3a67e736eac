import type { CoercionPlan, JsonSchema, ProfileName } from '@flatmcp/core'
import type { SupersetOptions } from './superset'
import { modelAnswer, outputDifference, resolveTarget } from '@flatmcp/core'
import { readArguments, readingPlan, RefusedArguments } from '@flatmcp/runtime/coerce'
import { acceptedSamples, minimise, originalReader } from './superset'
import { CLIENT_VALIDATORS } from './validators'

/** A tool as a target profile serves it: its advertised schema and its inverse map. */
export interface ProfiledForm {
  inputSchema: JsonSchema
  coercion: CoercionPlan
  decode?: CoercionPlan
}

export interface RoundTripResult {
  /** Values the original accepted, each written as the profile's model would and read back. */
  checked: number
  unmet: string[]
  /** The first value whose round trip fails, minimised: what the model wrote, what came back, and why. */
  counterexample?: { value: unknown, written: unknown, back?: unknown, reason: string }
}

type Problem = Omit<NonNullable<RoundTripResult['counterexample']>, 'value'>

/**
 * A target profile's round trip on samples (SPEC §4): each value the original accepts, written as a
 * model that follows `profile` writes it, must pass the advertised schema, and the inverse map,
 * applied as a server applies it, must give back a value the original parses to the same output.
 */
export async function checkRoundTrip(form: ProfiledForm, profile: string, parts: unknown[], options: SupersetOptions): Promise<RoundTripResult> {
  const advertised = CLIENT_VALIDATORS[0]!.compile(form.inputSchema === true ? {} : form.inputSchema === false ? { not: {} } : form.inputSchema)
  const reader = originalReader(parts, options.converters, options.preset)
  const reading = readingPlan(form)
  const nullsForMissing = resolveTarget(profile as ProfileName).profile?.nullsForMissing === true
  const problemOf = async (value: unknown, output: unknown): Promise<Problem | undefined> => {
    const written = modelAnswer(form.inputSchema, form.decode, value, { nullsForMissing })
    if (!advertised(written))
      return { written, reason: `the ${profile} schema rejects the model's form of the value` }
    // Read back as a server reads a call: the same loop, the same order of readings.
    const { result: read, args: back } = await readArguments(written, reading, async args => args instanceof RefusedArguments ? undefined : reader.read(args), read => read !== undefined)
    if (!read)
      return { written, back, reason: 'the original rejects what the inverse map gives back' }
    const at = outputDifference(output, read.output)
    return at === undefined ? undefined : { written, back, reason: `the original parses what the inverse map gives back to a different value at ${at}` }
  }
  const unmet = new Set<string>()
  let checked = 0
  for await (const { value, output } of acceptedSamples(reader, options, unmet)) {
    checked++
    if (await problemOf(value, output) === undefined)
      continue
    const small = await minimise(value, async (candidate) => {
      const read = await reader.read(candidate)
      return read !== undefined && await problemOf(candidate, read.output) !== undefined
    })
    const read = await reader.read(small)
    return { checked, unmet: [...unmet], counterexample: { value: small, ...(await problemOf(small, read!.output))! } }
  }
  return { checked, unmet: [...unmet] }
}
