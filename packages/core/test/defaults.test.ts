// A default JSON cannot carry, or one computed per parse, is left out of the listed schema with a
// warning naming the key: listed, it would say another value than the server applies, or the build's
// own (a time, a random id) and so differ on every build.
import { compileTool } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const input = z.object({
  limit: z.number().default(Infinity),
  ratio: z.number().default(Number.NaN),
  tags: z.record(z.string(), z.string()).default(new Map() as never),
  at: z.string().default(() => new Date().toISOString()),
  id: z.string().default(() => Math.random().toString(36)),
  page: z.number().default(1),
  sort: z.object({ by: z.string() }).default({ by: 'name' }),
  label: z.string().default(() => 'untitled'),
})

describe('defaults', () => {
  const tool = compileTool({ name: 'list', input })
  const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>
  const warnings = tool.diagnostics.filter(d => d.code === 'default-left-out')

  it('leaves out one JSON cannot carry, naming the key and what it would be listed as', () => {
    for (const key of ['limit', 'ratio', 'tags'])
      expect(properties[key], key).not.toHaveProperty('default')
    expect(warnings.find(d => d.path === '/properties/limit')).toMatchObject({ severity: 'warning', message: expect.stringContaining('the default (Infinity) is no JSON value: it would be listed as null') })
    expect(warnings.find(d => d.path === '/properties/tags')?.message).toContain('the default (a Map) is no JSON value: it would be listed as {}')
  })

  it('leaves out one computed per parse (a time, a random id), said as computed', () => {
    for (const key of ['at', 'id'])
      expect(properties[key], key).not.toHaveProperty('default')
    expect(warnings.find(d => d.path === '/properties/at')?.message).toMatch(/^the default is computed each time a call is parsed \("\d{4}-[^"]*", then "\d{4}-/)
    expect(warnings.map(d => d.path).sort()).toEqual(['/properties/at', '/properties/id', '/properties/limit', '/properties/ratio', '/properties/tags'])
  })

  it('keeps a JSON default, a function\'s constant one included, and the server still applies each', () => {
    expect(properties.page!.default).toBe(1)
    expect(properties.sort!.default).toEqual({ by: 'name' })
    expect(properties.label!.default).toBe('untitled')
    const parsed = input.parse({})
    expect(parsed.limit).toBe(Infinity)
    expect(parsed.page).toBe(1)
  })

  it('lists the same schema on every build', () => {
    expect(JSON.stringify(compileTool({ name: 'list', input }).inputSchema)).toBe(JSON.stringify(tool.inputSchema))
  })
})
