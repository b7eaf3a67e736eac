import { compileTool } from '@flatmcp/core'
import { defineTool, isToolDefinition, TOOL_MARK } from '@flatmcp/runtime'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const input = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('a'), text: z.string() }),
  z.object({ kind: z.literal('b'), count: z.number() }),
])

describe('defineTool', () => {
  it('returns the very object it was given, marked for build tooling', () => {
    const definition = { name: 'x', input, handler: () => 'ok' }
    const tool = defineTool(definition)
    expect(tool).toBe(definition)
    expect((tool as unknown as Record<symbol, unknown>)[TOOL_MARK]).toBe(true)
    expect(Object.keys(tool)).toEqual(['name', 'input', 'handler'])
    expect(isToolDefinition(tool)).toBe(true)
  })

  it('refuses a key no tool has, naming the one meant, rather than ignore it', () => {
    expect(() => defineTool({ name: 'greet', descripton: 'Greets.', input, handler: () => 'ok' } as never)).toThrow('defineTool: tool "greet" has a key no tool has: "descripton" (did you mean "description"?); a tool\'s keys are name, title, description, annotations, alwaysLoad, searchHint, params, input, output, handler')
    expect(() => defineTool({ name: 'greet', inputs: input, handlr: () => 'ok', zzz: 1 } as never)).toThrow('has keys no tool has: "inputs" (did you mean "input"?), "handlr" (did you mean "handler"?), "zzz";')
  })

  it('accepts a frozen definition without marking it', () => {
    const tool = defineTool(Object.freeze({ name: 'x', input, handler: () => 'ok' }))
    expect(isToolDefinition(tool)).toBe(true)
  })

  it('tells tools from other exports', () => {
    for (const value of [null, 1, 'tool', {}, { name: 'x' }, { name: 'x', input, handler: 'no' }])
      expect(isToolDefinition(value)).toBe(false)
  })

  it('is what compileTool reads', async () => {
    const tool = defineTool({ name: 'pick', params: z.object({ id: z.string() }), input, handler: (value, { params }) => `${params.id}:${value.kind}` })
    expect(compileTool(tool).inputSchema.required).toEqual(['id', 'kind'])
    expect(await tool.handler({ kind: 'a', text: 't' }, { params: { id: '7' }, context: undefined, signal: new AbortController().signal })).toBe('7:a')
  })
})
