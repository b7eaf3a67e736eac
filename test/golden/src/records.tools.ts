// Path-like params beside an input, a record, a nullable key, an output that is no object (listed
// wrapped), client hints, and a schema given as JSON Schema data.
import { z } from 'zod'

function isLookup(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return false
  const { term, lang } = value as { term?: unknown, lang?: unknown }
  return typeof term === 'string' && [...term].length >= 1 && (lang === undefined || lang === null || typeof lang === 'string')
}

export const tools = [
  {
    name: 'update_labels',
    description: 'Sets the labels of an issue. Labels not named are left as they are.',
    alwaysLoad: true,
    searchHint: true,
    params: z.object({ repo: z.string(), issue: z.number().int().positive() }),
    input: z.object({ labels: z.record(z.string(), z.enum(['on', 'off'])), note: z.string().nullable().optional() }),
    output: z.array(z.string()),
    handler: () => ['bug'],
  },
  {
    name: 'lookup',
    description: 'Looks a term up.',
    input: {
      '~standard': {
        version: 1,
        vendor: 'json-schema',
        // As a validator of its JSON Schema reads it.
        validate: (value: unknown) => isLookup(value) ? { value } : { issues: [{ message: 'expected { term, lang? }' }] },
        jsonSchema: {
          input: () => ({ type: 'object', properties: { term: { type: 'string', minLength: 1 }, lang: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null } }, required: ['term'] }),
          output: () => ({}),
        },
      },
    },
    handler: () => 'found',
  },
]
