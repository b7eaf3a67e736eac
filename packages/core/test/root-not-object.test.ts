// A tool input whose root is not one object: the error says what to write instead, for each way an
// author gets there (a raw shape, a union with a scalar branch, a scalar).
import { compileTool } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const rootError = (input: unknown): string | undefined => compileTool({ name: 't', input }).diagnostics.find(d => d.code === 'root-not-object')?.message

describe('a root that is not one object', () => {
  it('names the fix: wrap a raw shape in z.object, make every branch an object, or put a scalar under a key', () => {
    expect(rootError({ text: z.string() })).toMatch(/it takes any value\. Give an object schema, z\.object\(\{ text: z\.string\(\) \}\): a plain object of schemas .* is not one, wrap it in z\.object$/)
    expect(rootError(z.union([z.string(), z.object({ a: z.string() })]))).toMatch(/a union with "string" beside the object\. Make every branch an object \(z\.discriminatedUnion/)
    expect(rootError(z.string())).toMatch(/this one is "string": put it under a key, z\.object\(\{ value: … \}\)$/)
    expect(rootError(z.object({ a: z.string() }))).toBeUndefined()
  })
})
