// Every served tool is free of what older and hand-written upstreams leave in a schema, by property:
// generated JSON Schemas with `$id`, `$schema`, `required: null` and draft-04 boolean exclusive
// bounds at any node, compiled in every profile, meet Mistral's and DeepSeek V4's rules: no `required`
// but an array and no boolean bound in any profile (`minimal` too), no `$id` or `$schema` in any but
// `minimal`, which keeps identifiers as the schema wrote them (its `$ref`s may need them); `portable`
// meets Kimi's rules too (a `required` key `properties` names, a `patternProperties` value's too).
import { clientRuleViolations, compileTool, PROFILE_NAMES } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { upstreamSchema } from './support/json-schema-arbitrary'
import { RUNS, SEED } from './support/schema-arbitrary'

const NOISY = /"\$id"|"\$schema"|"required":null|"exclusive(?:Min|Max)imum":(?:true|false)/

describe('upstream noise (property)', () => {
  it(`no served tool of ${RUNS} generated upstream schemas holds what Mistral or DeepSeek V4 refuse, in any profile`, () => {
    let noisy = 0
    fc.assert(fc.property(upstreamSchema, (input) => {
      if (NOISY.test(JSON.stringify(input)))
        noisy++
      for (const profile of PROFILE_NAMES) {
        const tool = compileTool({ name: 'generated', input }, { profile, preset: 'json-schema' })
        const broken = clientRuleViolations(tool.name, tool.inputSchema)
          .filter(v => (v.client === 'Mistral' || v.client === 'DeepSeek V4' || (v.client === 'Kimi' && profile === 'portable')) && (profile !== 'minimal' || !/"\$(?:id|schema)"/.test(v.message)))
        expect(broken.map(v => `${v.client}: ${v.message}`), `${profile}: ${JSON.stringify(tool.inputSchema)}`).toEqual([])
      }
    }), { numRuns: RUNS, seed: SEED })
    // Most generated schemas carry noise: the property judges it, not clean schemas.
    expect(noisy).toBeGreaterThan(RUNS / 2)
  }, 600_000)

  it('portable leaves a required key out of a patternProperties value that names no properties (Kimi refuses it; the schema only widens)', () => {
    const tool = compileTool({ name: 'p', input: { type: 'object', patternProperties: { '^x': { type: 'object', required: ['b'] } } } }, { profile: 'portable', preset: 'json-schema' })
    expect(tool.inputSchema).toEqual({ type: 'object', patternProperties: { '^x': { type: 'object' } } })
    expect(clientRuleViolations(tool.name, tool.inputSchema)).toEqual([])
  })
})
