// Examples per variant, by property: for generated tool schemas (a root union half the time), every
// example the compiler carries is accepted by the original parser (zod), by the portable schema, and,
// as each target profile's model writes it, by that profile's schema under every client validator,
// and the inverse map gives back what the original parses to the same output. Deterministic, and off
// with `examples: false`.
import type { CompiledTool } from '@flatmcp/core'
import { compileTool, modelAnswer, outputDifference, resolveTarget, TARGET_NAMES } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { inverse, omitsInheritedKey } from '../../../test/support/round-trip'
import { RUNS, SEED, toolSpec, toZod } from '../../../test/support/schema-arbitrary'
import { rejectedBy } from '../../../test/support/validators'
import { SLOW } from '../../../test/support/timeouts'

const PROFILES = TARGET_NAMES

/** The examples a target profile's input description carries, one JSON text a line after "Examples:". */
function describedExamples(tool: CompiledTool): unknown[] {
  const text = typeof tool.inputSchema.description === 'string' ? tool.inputSchema.description : ''
  const at = text.lastIndexOf('Examples:\n')
  return at < 0 ? [] : text.slice(at + 'Examples:\n'.length).split('\n').map(line => JSON.parse(line) as unknown)
}

describe('examples per variant (property)', () => {
  it(`are accepted by the original parser and by every profile's schema, for ${Math.ceil(RUNS / 4)} generated tools`, () => {
    let withExamples = 0
    let checked = 0
    fc.assert(fc.property(toolSpec, (s) => {
      const schema = toZod(s)
      const portable = compileTool({ name: 'generated', input: schema })
      const examples = (portable.inputSchema.examples ?? []) as unknown[]
      expect(compileTool({ name: 'generated', input: schema }).inputSchema).toEqual(portable.inputSchema)
      expect(compileTool({ name: 'generated', input: schema }, { examples: false }).inputSchema).not.toHaveProperty('examples')
      if (examples.length === 0)
        return
      withExamples++
      for (const example of examples) {
        expect(schema.safeParse(example).success, JSON.stringify(example)).toBe(true)
        expect(rejectedBy(portable.inputSchema, example), JSON.stringify(example)).toEqual([])
      }
      for (const profile of PROFILES) {
        const tool = compileTool({ name: 'generated', input: schema }, { profile })
        const written = describedExamples(tool)
        expect(written).toHaveLength(examples.length)
        for (const [i, example] of written.entries()) {
          expect(example).toEqual(modelAnswer(tool.inputSchema, tool.decode, examples[i], { nullsForMissing: resolveTarget(profile).profile?.nullsForMissing === true && tool.strict === true }))
          // gemini's schema is OpenAPI 3.0 (`nullable`), which @cfworker/json-schema does not read; a closed
          // object without a key every object inherits (`constructor`) is ajv's documented limit.
          const rejecting = rejectedBy(tool.inputSchema, example).filter(name => profile !== 'gemini' || name !== '@cfworker/json-schema')
          if (!(omitsInheritedKey(tool.inputSchema, example) && rejecting.every(name => name.startsWith('ajv'))))
            expect(rejecting, `${profile} ${JSON.stringify(example)}`).toEqual([])
          const back = schema.safeParse(inverse(tool, example, candidate => schema.safeParse(candidate).success))
          expect(back.success, `${profile}: the inverse of ${JSON.stringify(example)}`).toBe(true)
          expect(outputDifference(schema.parse(examples[i]), back.data)).toBeUndefined()
          checked++
        }
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
    // Half the generated tools are unions: most of them must get examples, or the property says little.
    expect(withExamples).toBeGreaterThan(RUNS / 16)
    expect(checked).toBeGreaterThan(RUNS / 8)
  }, SLOW)

  it('one per variant, the simplest value of its required keys, only where the parser takes it, and none for an async parser', () => {
    const input = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('text'), chat: z.string(), text: z.string().min(3) }),
      z.object({ kind: z.literal('poll'), chat: z.string(), options: z.array(z.string()).min(2), anonymous: z.boolean().default(true) }),
      z.object({ kind: z.literal('code'), code: z.string().regex(/^[A-Z]{3}$/) }),
      z.object({ kind: z.literal('odd'), n: z.number().refine(n => n % 2 === 1) }),
    ])
    expect(compileTool({ name: 'send', input }).inputSchema.examples).toEqual([
      { kind: 'text', chat: 'a', text: 'aaa' },
      { kind: 'poll', chat: 'a', options: ['a', 'a'] },
    ])
    const later = { ...input, '~standard': { ...input['~standard'], validate: async (value: unknown) => input['~standard'].validate(value) } }
    expect(compileTool({ name: 'send', input: later }).inputSchema).not.toHaveProperty('examples')
    expect(compileTool({ name: 'plain', input: z.object({ a: z.string() }) }).inputSchema).not.toHaveProperty('examples')
  })
})
