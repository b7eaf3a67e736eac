// A call's arguments read as one tool takes them: the shared fields, `params` and `input` each
// parsed by the author's own schema, reading after reading of the profile's inverse map (the one loop
// in `read/`); a call whose list is not known is read under every list and must read alike.
import type { ExtendOptions } from './options'
import type { Form, ToolEntry } from './tools'
import { inverseArgs, RefusedArguments } from '../coerce/inverse-args'
import { readArguments } from '../read/readings'
import { isChooserSchema } from '../tool/standard-schema'
import { defineOwn, isObject } from '../util/object'
import { describeIssues } from '../validate/messages'
import { validate } from '../validate/validate'

export type Checked = { ok: true, fields: unknown, params: unknown, input: unknown } | { ok: false, message: string }

/** One reading's verdict, and the arguments it read. */
export interface Reading { checked: Checked, args: unknown }

/** The arguments whose keys `keep` accepts, as own data properties (a `__proto__` key stays a key). */
function select(args: Record<string, unknown>, keep: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(args)) {
    if (keep(key))
      defineOwn(out, key, args[key])
  }
  return out
}

/** Validates the shared fields, `params` and `input` of one reading of the arguments. */
async function checkArgs(entry: ToolEntry, args: unknown, extend: ExtendOptions | undefined): Promise<Checked> {
  const { definition, compiled } = entry
  if (args instanceof RefusedArguments)
    return { ok: false, message: `Invalid arguments for tool "${definition.name}": ${args.message}` }
  if (!isObject(args))
    return { ok: false, message: `Invalid arguments for tool "${definition.name}": expected a JSON object.` }
  const extendKeys = compiled.slices?.extend ?? []
  const paramKeys = compiled.slices?.params ?? []
  let fields: unknown
  if (extend) {
    const parsed = await validate(extend.schema, select(args, key => extendKeys.includes(key)))
    if (!parsed.ok)
      return { ok: false, message: describeIssues(definition.name, parsed.issues, args) }
    fields = parsed.value
  }
  let params: unknown
  if (definition.params) {
    const parsed = await validate(definition.params, select(args, key => paramKeys.includes(key)))
    if (!parsed.ok)
      return { ok: false, message: describeIssues(definition.name, parsed.issues, args) }
    params = parsed.value
  }
  const inputArgs = extendKeys.length + paramKeys.length === 0 ? args : select(args, key => !extendKeys.includes(key) && !paramKeys.includes(key))
  const input = await validate(definition.input, inputArgs)
  if (!input.ok)
    return { ok: false, message: describeIssues(definition.name, input.issues, inputArgs, compiled.discriminator) }
  return { ok: true, fields, params, input: input.value }
}

/** Map back and validate (shared fields, params, input) under one form, reading after reading. */
export async function readArgs(entry: ToolEntry, form: Form, raw: unknown, extend: ExtendOptions | undefined): Promise<Reading> {
  // The chooser's test is made before the readings are timed: loading ajv on a cold, busy process
  // took over the one-second budget, so no reading after the first was tried and it went unrepaired.
  if (isChooserSchema(entry.definition.input))
    entry.definition.input['~flatmcp'].prepare()
  const tried = await readArguments(raw, form.reading, args => checkArgs(entry, args, extend), checked => checked.ok)
  // A schema that only chooses (a proxied tool's: the upstream's parser decides) lets the first reading through.
  if (!tried.result.ok && isChooserSchema(entry.definition.input)) {
    const { reading } = form
    const args = reading.coerce ? inverseArgs(raw, reading.plan, ...reading.tries[0]!) : raw
    if (isObject(args) && !(args instanceof RefusedArguments))
      return { checked: { ok: true, fields: undefined, params: undefined, input: args }, args }
  }
  return { checked: tried.result, args: tried.args }
}

/**
 * A call whose list is not known (see `Decision.unsure`), read under every form the server serves
 * the tool in: the readings the original accepts must agree, or the call is refused rather than
 * read as some list it may not have come from.
 */
export async function readUnsure(entry: ToolEntry, chosen: Form, raw: unknown, extend: ExtendOptions | undefined, formOf: (profile: string | undefined) => Form): Promise<Reading> {
  const profiles = [undefined, ...Object.keys(entry.compiled.profiles ?? {})]
  const forms = [...new Set([chosen, ...profiles.map(formOf)])]
  const readings = await Promise.all(forms.map(form => readArgs(entry, form, raw, extend)))
  const accepted = readings.filter(reading => reading.checked.ok)
  const texts = new Set(accepted.map(reading => JSON.stringify(reading.args)))
  if (texts.size > 1) {
    const message = `Invalid arguments for tool "${entry.definition.name}": the lists this server serves read them differently, and the call does not say which one it came from (it carries no clientInfo). Send clientInfo in the _meta of every request.`
    return { checked: { ok: false, message }, args: raw }
  }
  return accepted[0] ?? readings[0]!
}
