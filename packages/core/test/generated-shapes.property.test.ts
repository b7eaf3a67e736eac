// The superset invariant on the shapes other languages' generators write, by property: generated
// schemas rewritten as pydantic writes them (titles, `anyOf [T, null]` with `default: null`, models
// behind `$ref`s with siblings, OpenAPI discriminators) or as jsonschema-go does (`["null", T]`),
// read as plain JSON Schema so the validators are the parser. What each validator accepts under
// the original it accepts under the flat schema; a target profile's form of a value every
// validator accepts passes its schema and maps back to the same value.
import type { JsonSchemaObject } from '@flatmcp/core'
import { compileTool, modelAnswer, outputDifference, PROFILE_NAMES, resolveTarget, toOriginalSchema } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRandom, sampleValue } from '../../unplugin/src/core/check/sample'
import { asGenerated } from '../../../test/support/generator-shapes'
import { inverse, omitsInheritedKey } from '../../../test/support/round-trip'
import { cases, RUNS, SEED, toZod } from '../../../test/support/schema-arbitrary'
import { SLOW } from '../../../test/support/timeouts'
import { CLIENT_VALIDATORS, rejectedBy, validatorsOf } from '../../../test/support/validators'

const TIMEOUT = Math.max(SLOW, RUNS * 900)
const PROFILES = PROFILE_NAMES

describe('generator-shaped schemas (property)', () => {
  it(`keep the invariant over ${Math.ceil(RUNS / 4)} schemas in every profile, validators as the parser`, () => {
    let schemas = 0
    let checked = 0
    let roundTrips = 0
    fc.assert(fc.property(cases, fc.integer(), fc.constantFrom('pydantic', 'go'), ([s, zodValues], seed, style) => {
      const { $schema: _tag, ...zodJson } = toOriginalSchema(toZod(s)).schema
      const random = createRandom(seed)
      const original = asGenerated(zodJson as JsonSchemaObject, style as 'pydantic' | 'go', random)
      // A draft-07 document is read by a draft-07 validator: the others would read its `$ref` siblings as 2020-12 does.
      const { $schema: dialect, ...document } = original
      const judges = dialect === undefined ? undefined : ['ajv draft-07']
      const judging = validatorsOf(document)
      if (!judging)
        return
      const underOriginal = (value: unknown): string[] => judges ? [...judging(value).filter(name => judges.includes(name)), ...CLIENT_VALIDATORS.map(v => v.name).filter(name => !judges.includes(name))] : judging(value)
      schemas++
      const values = [...zodValues.map(value => JSON.parse(JSON.stringify(value)) as unknown), ...Array.from({ length: 4 }, () => sampleValue(original, random, { relax: true }))]
      for (const profile of PROFILES) {
        const tool = compileTool({ name: 'generated', input: original }, { profile, preset: 'json-schema' })
        const advertised = tool.inputSchema
        expect(JSON.stringify(advertised)).not.toContain('"discriminator"')
        for (const value of values) {
          const rejected = new Set(underOriginal(value))
          if (profile === 'portable' || profile === 'minimal' || tool.strict === false) {
            const lost = rejectedBy(advertised, value).filter(name => !rejected.has(name))
            checked += 4 - rejected.size
            if (lost.length > 0)
              throw new Error(`${profile}: flat schema rejects under ${lost.join(', ')} a value the original accepts there:\nvalue: ${JSON.stringify(value)}\noriginal: ${JSON.stringify(original)}\nflat: ${JSON.stringify(advertised)}`)
            continue
          }
          if (rejected.size > 0)
            continue
          const written = modelAnswer(advertised, tool.decode, value, { nullsForMissing: resolveTarget(profile).profile?.nullsForMissing === true })
          const rejecting = rejectedBy(advertised, written).filter(name => profile !== 'gemini' || name !== '@cfworker/json-schema')
          if (rejecting.length > 0 && !(omitsInheritedKey(advertised, written) && rejecting.every(name => name.startsWith('ajv'))))
            throw new Error(`${profile} rejects the model's form (${rejecting.join(', ')}):\nvalue: ${JSON.stringify(value)}\nwritten: ${JSON.stringify(written)}\nflat: ${JSON.stringify(advertised)}\noriginal: ${JSON.stringify(original)}`)
          if (rejecting.length > 0)
            continue
          const back = inverse(tool, written, candidate => underOriginal(candidate).length === 0)
          // The documented limit of unions without a tag (see targets.property): a value both alternatives fit alike.
          if (underOriginal(back).length > 0 || outputDifference(value, back) !== undefined) {
            if (JSON.stringify(original).includes('"anyOf":[{"type":"object"'))
              continue
            throw new Error(`${profile}: the inverse does not give the value back:\nvalue: ${JSON.stringify(value)}\nwritten: ${JSON.stringify(written)}\nback: ${JSON.stringify(back)}\noriginal: ${JSON.stringify(original)}`)
          }
          roundTrips++
        }
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
    expect(schemas).toBeGreaterThan(RUNS / 16)
    expect(checked).toBeGreaterThan(RUNS)
    expect(roundTrips).toBeGreaterThan(RUNS / 4)
  }, TIMEOUT)
})
