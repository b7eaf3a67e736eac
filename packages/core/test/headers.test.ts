// `x-mcp-header` (SEP-2243): a header property stays primitive and reachable through `properties`
// alone in what ships, or the build says so and drops the annotation (a client drops a tool that
// breaks the rule); the probe's profile check finds a misplaced one.
import { compileTool, FLATTEN_PROFILE_NAMES, profileViolations } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const header = (name: string): Record<string, string> => ({ 'x-mcp-header': name })

describe('x-mcp-header', () => {
  it('is kept on a primitive property every variant declares alike, in both flattening profiles', () => {
    const input = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), region: z.string().meta(header('Region')), n: z.number() }),
      z.object({ kind: z.literal('b'), region: z.string().meta(header('Region')) }),
    ])
    for (const profile of FLATTEN_PROFILE_NAMES) {
      const tool = compileTool({ name: 'h', input }, { profile })
      expect(tool.inputSchema.properties).toMatchObject({ region: { 'type': 'string', 'x-mcp-header': 'Region' } })
      expect(tool.diagnostics.filter(d => d.code === 'header-lost')).toEqual([])
      expect(profileViolations(tool.inputSchema, profile)).toEqual([])
    }
  })

  it('a header a collision widens, or one variant leaves out, is an error and its annotation is dropped', () => {
    const widened = compileTool({ name: 'h', input: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), region: z.string().meta(header('Region')) }),
      z.object({ kind: z.literal('b'), region: z.number() }),
    ]) })
    expect(widened.diagnostics.filter(d => d.code === 'header-lost')).toMatchObject([{ severity: 'error', path: '/properties/region', message: expect.stringContaining('the header property "Region"') }])
    expect(JSON.stringify(widened.inputSchema)).not.toContain('x-mcp-header')
    const both = compileTool({ name: 'h', input: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), region: z.string().meta(header('Region')) }),
      z.object({ kind: z.literal('b'), region: z.number().meta(header('Region')) }),
    ]) })
    expect(both.diagnostics.find(d => d.code === 'header-lost')?.message).toMatch(/not one primitive type here \(\["string","number"\]\)/)
    expect(JSON.stringify(both.inputSchema)).not.toContain('x-mcp-header')
  })

  it('a header out of reach of properties (in array items) is an error and dropped; the probe\'s check finds one left in', () => {
    const tool = compileTool({ name: 'h', input: z.object({ list: z.array(z.object({ r: z.string().meta(header('R')) })) }) })
    expect(tool.diagnostics.filter(d => d.code === 'header-lost').map(d => d.path)).toEqual(['/properties/list/items/properties/r'])
    expect(JSON.stringify(tool.inputSchema)).not.toContain('x-mcp-header')
    const shipped = { type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { r: { 'type': 'string', 'x-mcp-header': 'R' } } } }, n: { 'type': ['string', 'number'], 'x-mcp-header': 'N' } } }
    expect(profileViolations(shipped)).toEqual([
      '/properties/list/items/properties/r: x-mcp-header on a property not reachable through properties alone',
      '/properties/n: x-mcp-header on a property that is not one primitive type',
    ])
  })
})
