// What the proxy lists for a tool costs a model no more than twice the upstream's own listing, in
// every profile it serves (issue 70): Microsoft 365's `create-onenote-section`, whose Graph schema
// refers to one shape from many places and to shapes that hold themselves, was listed at 2.99× its
// upstream's tokens when copies of one definition inlined to different depths were all written out.
// The listing is the pinned server's own (test/data); the flat form still takes every value it takes.
import type { UpstreamTool } from '../packages/runtime/src/artifact/format'
import * as compiler from '@flatmcp/core'
import { readFileSync } from 'node:fs'
import { definitionTokens, loadTokenizer } from 'unplugin-flatmcp/internal'
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUpstreamTool } from '../packages/runtime/src/proxy/compile/compile-upstream'
import { ROOT } from './support/client'
import { rejectedBy } from './support/validators'

const { tool } = JSON.parse(readFileSync(`${ROOT}/test/data/ms-365-create-onenote-section.json`, 'utf8')) as { tool: UpstreamTool & { description: string } }
const PROFILES = compiler.PROFILE_NAMES.filter(name => name !== 'minimal' && name !== 'portable')
const compiled = compileUpstreamTool(compiler, tool, 'json-schema', { profiles: PROFILES, maxSchemaBytes: 256 * 1024 })

/** The input schema each profile lists: `portable` is the tool's own, the others its profiles'. */
function listed(): Record<string, unknown> {
  if (!('precomputed' in compiled) || compiled.served !== 'compiled')
    throw new Error(`served as it came: ${JSON.stringify(compiled)}`)
  const { tool: served, profiles } = compiled.precomputed
  return { portable: served.inputSchema, ...Object.fromEntries(PROFILES.map(profile => [profile, profiles?.[profile]?.inputSchema ?? served.inputSchema])) }
}

describe('Microsoft 365\'s create-onenote-section through the proxy', () => {
  beforeAll(() => loadTokenizer())

  it('is listed at no more than 2× its upstream\'s tokens in every profile', () => {
    const own = definitionTokens({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })
    const ratios = Object.entries(listed()).map(([profile, inputSchema]) => [profile, Number((definitionTokens({ name: tool.name, description: tool.description, inputSchema }) / own).toFixed(2))])
    expect(ratios.filter(([, ratio]) => (ratio as number) > 2)).toEqual([])
  })

  it('still takes what the upstream takes: a section whose notebook lists sections that name their notebook', () => {
    const value = {
      notebookId: 'n1',
      body: {
        displayName: 'Q1',
        createdBy: { user: { id: 'u1', displayName: 'Ana' } },
        lastModifiedBy: { device: { id: 'd1' } },
        parentNotebook: { displayName: 'Plans', sections: [{ displayName: 'Q0', parentNotebook: { displayName: 'Plans', createdBy: { user: { id: 'u2' } } } }] },
        parentSectionGroup: { displayName: 'G', sections: [{ displayName: 'Q2' }], parentNotebook: { displayName: 'Plans' } },
        pages: [{ title: 'Kickoff', parentSection: { displayName: 'Q1', parentNotebook: { displayName: 'Plans' } } }],
      },
    }
    // Its `$schema` names draft-07, which the clients' validators are not given; nothing in it reads otherwise in 2020-12.
    const { $schema: _draft, ...upstream } = tool.inputSchema as Record<string, unknown>
    expect(rejectedBy(upstream, value)).toEqual([])
    expect(rejectedBy(listed().portable, value)).toEqual([])
  })
})
