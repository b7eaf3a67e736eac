// Elicitation forms from schemas: each round is a spec-valid `requestedSchema` (judged by the MCP
// SDK's own schema for a form request, which keeps nothing it does not know), and every value the
// original accepts has answers that rebuild it.
import type { SchemaConverters } from '@flatmcp/core'
import { compileForm, FormError } from '@flatmcp/core'
import { nextRound, rebuildValue } from '@flatmcp/runtime'
import * as v from 'valibot'
import { toJsonSchema } from '@valibot/to-json-schema'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { expectSpecValid } from './form-checks'

const Address = z.object({ city: z.string().min(1).describe('Where you live'), zip: z.string().optional() })
const Booking = z.object({
  name: z.string().max(80),
  email: z.email(),
  when: z.iso.date(),
  seats: z.number().int().min(1).max(8),
  vegetarian: z.boolean().default(false),
  address: Address,
  billing: Address.optional(),
  tags: z.array(z.enum(['window', 'quiet'])).optional(),
  kind: z.literal('booking'),
})
const Payment = z.discriminatedUnion('method', [
  z.object({ method: z.literal('card'), card: z.object({ number: z.string(), expires: z.string() }) }).describe('Pay by card'),
  z.object({ method: z.literal('invoice'), address: Address }).describe('Send an invoice'),
])

describe('elicitation forms', () => {
  it('a nested object becomes titled flat fields keyed by their path; optional, enum, multi-select and const are kept as a form says them', () => {
    const form = compileForm(Booking)
    expectSpecValid(form)
    const { properties, required } = form.first.requestedSchema
    // An object that may be left out is asked for with a yes or no first, so an empty one can be said too.
    expect(Object.keys(properties)).toEqual(['name', 'email', 'when', 'seats', 'vegetarian', 'address.city', 'address.zip', 'billing', 'billing.city', 'billing.zip', 'tags'])
    expect(properties.billing).toEqual({ type: 'boolean', title: 'Billing' })
    expect(properties['address.city']).toEqual({ type: 'string', minLength: 1, title: 'Address › City', description: 'Where you live' })
    expect(properties.email).toMatchObject({ type: 'string', format: 'email' })
    expect(properties.seats).toMatchObject({ type: 'integer', minimum: 1, maximum: 8 })
    expect(properties.tags).toMatchObject({ type: 'array', items: { type: 'string', enum: ['window', 'quiet'] } })
    // Optional objects' fields are optional; a default makes a field optional to answer.
    expect(required).toEqual(['name', 'email', 'when', 'seats', 'address.city'])
    const value = rebuildValue(form, [{ 'name': 'Ada', 'email': 'a@b.co', 'when': '2026-12-24', 'seats': 2, 'address.city': 'Oslo' }])
    expect(value).toEqual({ name: 'Ada', email: 'a@b.co', when: '2026-12-24', seats: 2, address: { city: 'Oslo' }, kind: 'booking' })
    expect(Booking.parse(value)).toMatchObject({ vegetarian: false, kind: 'booking' })
    expect(rebuildValue(form, [{ 'billing': true, 'billing.city': 'Bergen' }])).toMatchObject({ billing: { city: 'Bergen' } })
    expect(rebuildValue(form, [{ billing: true }])).toMatchObject({ billing: {} })
  })

  it('a discriminated union is asked in rounds: its tag as a titled choice, then the chosen variant\'s fields', () => {
    const form = compileForm(Payment)
    expectSpecValid(form)
    expect(form.first.requestedSchema).toEqual({ type: 'object', properties: { method: { type: 'string', title: 'Method', oneOf: [{ const: 'card', title: 'Pay by card' }, { const: 'invoice', title: 'Send an invoice' }] } }, required: ['method'] })
    const second = nextRound(form, [{ method: 'invoice' }])!
    expect(Object.keys(second.requestedSchema.properties)).toEqual(['address.city', 'address.zip'])
    expect(nextRound(form, [{ method: 'invoice' }, { 'address.city': 'Oslo' }])).toBeUndefined()
    expect(nextRound(form, [{ method: 'cash' }])).toBeUndefined()
    expect(Payment.parse(rebuildValue(form, [{ method: 'invoice' }, { 'address.city': 'Oslo' }]))).toEqual({ method: 'invoice', address: { city: 'Oslo' } })
  })

  it('a schema of another library (valibot) makes the same form', () => {
    // As the build gives it the project's @valibot/to-json-schema.
    const form = compileForm(v.object({ name: v.pipe(v.string(), v.maxLength(80)), address: v.object({ city: v.string(), zip: v.optional(v.string()) }), size: v.picklist(['s', 'm']) }), { valibotToJsonSchema: toJsonSchema as SchemaConverters['valibotToJsonSchema'] })
    expectSpecValid(form)
    expect(form.first.requestedSchema).toEqual({
      type: 'object',
      properties: { 'name': { type: 'string', maxLength: 80, title: 'Name' }, 'address.city': { type: 'string', title: 'Address › City' }, 'address.zip': { type: 'string', title: 'Address › Zip' }, 'size': { type: 'string', enum: ['s', 'm'], title: 'Size' } },
      required: ['name', 'address.city', 'size'],
    })
  })

  it('what a form cannot hold is a FormError naming its path', () => {
    const cases: [z.ZodType, RegExp][] = [
      [z.object({ items: z.array(z.object({ id: z.string() })) }), /^\/properties\/items: a list of anything but a choice of strings/],
      [z.object({ scores: z.record(z.string(), z.number()) }), /^\/properties\/scores: a record/],
      [z.object({ any: z.unknown() }), /^\/properties\/any: any value/],
      [z.object({ inner: z.union([z.string(), z.number()]) }), /^\/properties\/inner: a union inside the form/],
      [z.array(z.string()), /^\/: a form asks for an object's fields/],
      [z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), /^\/: a union whose variants share no tag/],
    ]
    for (const [schema, message] of cases) {
      expect(() => compileForm(schema)).toThrow(FormError)
      expect(() => compileForm(schema)).toThrow(message)
    }
  })
})
