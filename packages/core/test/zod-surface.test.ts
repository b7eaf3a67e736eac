// Every check, format and wrapper zod exports, each with edge values zod accepts, checked under
// every validator clients run, at depth 0 and as a collided key, in both flattening profiles. The
// list of cases is driven by zod's own exports: one that has no case (or no reason to have none)
// fails the first test, so a zod upgrade that adds a check cannot slip by.
import { compileTool, FLATTEN_PROFILE_NAMES } from '@flatmcp/core'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CLIENT_VALIDATORS, rejectedBy } from '../../../test/support/validators'

interface Case {
  /** What the case covers: zod exports, or `.method` names of a schema. */
  covers: string[]
  schema: () => z.ZodType
  /** Values zod accepts (the test checks it), at the edges where parser and validators part. */
  values: unknown[]
}

const ASTRAL = '😀'
const longLabel = 'x'.repeat(64)

const STRING_CASES: Case[] = [
  { covers: ['string'], schema: () => z.string(), values: ['', ASTRAL, 'a\nb', '\u0000'] },
  { covers: ['minLength', '.min'], schema: () => z.string().min(3), values: [ASTRAL + ASTRAL + ASTRAL, 'abc', 'a😀b'] },
  { covers: ['maxLength', '.max'], schema: () => z.string().max(2), values: [ASTRAL, 'ab', ''] },
  { covers: ['length', '.length', '.nonempty'], schema: () => z.string().length(4).nonempty(), values: [ASTRAL.repeat(4), 'abcd', 'a😀bc'] },
  { covers: ['regex', '.regex'], schema: () => z.string().regex(/^[a-z]+$/i), values: ['ABC', 'abc', 'aBc'] },
  { covers: ['regex'], schema: () => z.string().regex(/^ok$/m), values: ['x\nok', 'ok\ny', 'ok'] },
  { covers: ['regex'], schema: () => z.string().regex(/^a.b$/s), values: ['a\nb', 'a😀b'.replace('😀', 'x')] },
  { covers: ['regex'], schema: () => z.string().regex(/^.{2}$/), values: [ASTRAL, 'ab'] },
  { covers: ['regex'], schema: () => z.string().regex(/^[^@]+@[^@]+$/), values: [`${ASTRAL}@b`, 'a@b'] },
  { covers: ['regex'], schema: () => z.string().regex(/^\p{L}+$/u), values: ['é', 'abc'] },
  { covers: ['regex'], schema: () => z.string().regex(/abc/y), values: ['abc', 'abcd'] },
  { covers: ['regex'], schema: () => z.string().regex(/ab+c/g), values: ['xabbc', 'abc'] },
  { covers: ['regex'], schema: () => z.string().regex(/^(?:caf\u00E9|na\u00EFve)$/i), values: ['CAFÉ', 'NAÏVE', 'café'] },
  { covers: ['regex'], schema: () => z.string().regex(new RegExp('^a\\-b\\.c$')), values: ['a-b.c'] },
  { covers: ['includes', '.includes'], schema: () => z.string().includes('x', { position: 2 }), values: ['x\nx', 'abx', `${ASTRAL}x`] },
  { covers: ['includes'], schema: () => z.string().includes('a.b'), values: ['xa.by', 'a.b'] },
  { covers: ['startsWith', '.startsWith'], schema: () => z.string().startsWith('a.'), values: ['a.\nb', 'a.'] },
  { covers: ['endsWith', '.endsWith'], schema: () => z.string().endsWith('.z'), values: ['a\nb.z', '.z'] },
  { covers: ['lowercase', '.lowercase'], schema: () => z.string().lowercase(), values: ['abc é', '123\n', 'É'] },
  { covers: ['uppercase', '.uppercase'], schema: () => z.string().uppercase(), values: ['ABC É', '123\n', 'é'] },
  { covers: ['trim', '.trim'], schema: () => z.string().trim().max(2), values: ['  ab  ', 'a'] },
  { covers: ['toLowerCase', '.toLowerCase'], schema: () => z.string().toLowerCase().regex(/^[a-z]+$/), values: ['ABC', 'abc'] },
  { covers: ['toUpperCase', '.toUpperCase'], schema: () => z.string().toUpperCase().regex(/^[A-Z]+$/), values: ['abc', 'ABC'] },
  { covers: ['normalize', '.normalize'], schema: () => z.string().normalize().max(1), values: ['e\u0301', 'é'] },
  { covers: ['slugify', '.slugify'], schema: () => z.string().slugify().regex(/^[a-z-]+$/), values: ['Hello World', 'a'] },
  { covers: ['overwrite'], schema: () => z.string().check(z.overwrite(s => s.slice(0, 2))).max(2), values: ['abcdef'] },
  { covers: ['refine', 'superRefine', 'check', '.refine', '.superRefine', '.check'], schema: () => z.string().min(2).refine(s => s !== 'no').superRefine(() => {}).check(() => {}), values: ['ok', `a${ASTRAL}`] },
  { covers: ['describe', 'meta', '.describe', '.meta'], schema: () => z.string().check(z.describe('d'), z.meta({ title: 't' })).describe('x').meta({ examples: ['a'] }), values: ['a'] },
  { covers: ['email', '.email'], schema: () => z.email(), values: ['a@b-.com', `a@${longLabel}.com`, `${'x'.repeat(65)}@b.com`, 'o\'hara@b.co', 'a+b@c.d-e.fg'] },
  { covers: ['email'], schema: () => z.email({ pattern: z.regexes.unicodeEmail }), values: ['josé@exämple.com', '用户@例子.广告', `a${ASTRAL}@b.c`] },
  { covers: ['email'], schema: () => z.email({ pattern: z.regexes.html5Email }), values: ['a@b', 'a.b@c-d'] },
  { covers: ['url', '.url'], schema: () => z.url(), values: ['http://a', 'HTTP://A.COM', 'https://ex.com/ü', 'http://a/%zz', ' http://a.com ', 'a:', 'http://exa\tmple.com'] },
  { covers: ['httpUrl'], schema: () => z.httpUrl(), values: ['https://ex.com/ü', 'HTTP://A.CO/%zz'] },
  { covers: ['url'], schema: () => z.url({ hostname: /^ex\.com$/ }), values: ['https://ex.com/a'] },
  { covers: ['hostname'], schema: () => z.hostname(), values: ['localhost.', 'a.b.', 'A-B.C', '123', `${'a'.repeat(63)}.com`] },
  { covers: ['uuid', '.uuid'], schema: () => z.uuid(), values: ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '123E4567-E89B-42D3-A456-426614174000'] },
  { covers: ['uuidv4', '.uuidv4'], schema: () => z.uuidv4(), values: ['123E4567-E89B-42D3-A456-426614174000'] },
  { covers: ['uuidv6', '.uuidv6'], schema: () => z.uuidv6(), values: ['1EC9414C-232A-6B00-B3C8-9E6BDECED846'] },
  { covers: ['uuidv7', '.uuidv7'], schema: () => z.uuidv7(), values: ['017F22E2-79B0-7CC3-98C4-DC0C0C07398F'] },
  { covers: ['guid', '.guid'], schema: () => z.guid(), values: ['123e4567-e89b-92d3-c456-426614174000', 'ABCDEF00-0000-0000-0000-000000000000'] },
  { covers: ['ipv4', '.ipv4'], schema: () => z.ipv4(), values: ['0.0.0.0', '255.255.255.255'] },
  { covers: ['ipv6', '.ipv6'], schema: () => z.ipv6(), values: ['::ffff:192.168.0.1', '::1.2.3.4', '1::2:3:4.5.6.7', '::FFFF:1.2.3.4', 'fe80::', '::'] },
  { covers: ['cidrv4', '.cidrv4'], schema: () => z.cidrv4(), values: ['0.0.0.0/0', '10.0.0.0/32'] },
  { covers: ['cidrv6', '.cidrv6'], schema: () => z.cidrv6(), values: ['::ffff:192.168.0.0/96', '2001:db8::/32', '::/0'] },
  { covers: ['mac'], schema: () => z.mac(), values: ['00:1a:2b:3c:4d:5e', '00:1A:2B:3C:4D:5E'] },
  { covers: ['base64', '.base64'], schema: () => z.base64(), values: ['', 'YQ==', 'YWI=', 'YWJj', 'YR=='] },
  { covers: ['base64url', '.base64url'], schema: () => z.base64url(), values: ['', 'YQ', 'YWI', '-_8'] },
  { covers: ['hex'], schema: () => z.hex(), values: ['', 'aBc'] },
  { covers: ['hash'], schema: () => z.hash('md5'), values: ['D41D8CD98F00B204E9800998ECF8427E'] },
  { covers: ['e164', '.e164'], schema: () => z.e164(), values: ['+14155552671', '+1234567'] },
  { covers: ['jwt', '.jwt'], schema: () => z.jwt(), values: ['eyJhbGciOiJIUzI1NiJ9.e30.x', 'eyJhbGciOiJub25lIn0..'] },
  { covers: ['emoji', '.emoji'], schema: () => z.emoji(), values: ['😀', '👍🏽', '🇫🇷', '#️⃣'] },
  { covers: ['nanoid', '.nanoid'], schema: () => z.nanoid(), values: ['V1StGXR8_Z5jdHi6B-myT'] },
  { covers: ['cuid', '.cuid'], schema: () => z.cuid(), values: ['cjld2cjxh0000qzrmn831i7rn', 'Cabcdefg'] },
  { covers: ['cuid2', '.cuid2'], schema: () => z.cuid2(), values: ['tz4a98xxat96iws9zmbrgj3a'] },
  { covers: ['ulid', '.ulid'], schema: () => z.ulid(), values: ['01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fav'] },
  { covers: ['xid', '.xid'], schema: () => z.xid(), values: ['9m4e2mr0ui3e8a215n4g'] },
  { covers: ['ksuid', '.ksuid'], schema: () => z.ksuid(), values: ['0ujtsYcgvSTl8PAuAdqWYSMnLOv'] },
  { covers: ['creditCard'], schema: () => z.creditCard(), values: ['4111111111111111', '4111 1111 1111 1111', '4111-1111-1111-1111'] },
  { covers: ['iban'], schema: () => z.iban(), values: ['DE89370400440532013000', 'GB82WEST12345698765432'] },
  { covers: ['currencyCode'], schema: () => z.currencyCode(), values: ['USD', 'XXX'] },
  { covers: ['stringFormat'], schema: () => z.stringFormat('even', v => v.length % 2 === 0), values: ['ab', ASTRAL] },
  { covers: ['iso.datetime', '.datetime'], schema: () => z.iso.datetime(), values: ['2020-01-01T00:00:00Z', '2020-01-01T00:00:00.123456789Z', '2020-02-29T23:59:59Z'] },
  { covers: ['iso.datetime'], schema: () => z.iso.datetime({ offset: true, precision: 3 }), values: ['2020-01-01T00:00:00.123+01:00', '2020-01-01T00:00:00.000-23:59'] },
  { covers: ['iso.datetime'], schema: () => z.iso.datetime({ local: true }), values: ['2020-01-01T00:00', '2020-01-01T00:00:00.5'] },
  { covers: ['iso.date', '.date'], schema: () => z.iso.date(), values: ['2020-02-29', '2000-02-29', '0000-01-01'] },
  { covers: ['iso.time', '.time'], schema: () => z.iso.time(), values: ['00:00', '23:59:59.999999'] },
  { covers: ['iso.duration', '.duration'], schema: () => z.iso.duration(), values: ['PT1.5S', 'PT0,5S', 'P1W', 'P1Y2M3DT4H5M6S'] },
  { covers: ['templateLiteral'], schema: () => z.templateLiteral([z.string().min(2).max(3), '.', z.number()]), values: [`${ASTRAL}.1`, 'ab.1', 'a\nb.2'] },
  { covers: ['stringbool'], schema: () => z.stringbool(), values: ['true', 'YES', 'enabled', 'Off'] },
  { covers: ['mime', 'size', 'minSize', 'maxSize'], schema: () => z.string(), values: ['file checks apply to File values only'] },
]

const NUMBER_CASES: Case[] = [
  { covers: ['number'], schema: () => z.number(), values: [-0, 2 ** 53, 1e308, 5e-324] },
  { covers: ['int', '.int', 'safe', '.safe'], schema: () => z.int(), values: [-0, 2 ** 53 - 1, -(2 ** 53 - 1)] },
  { covers: ['int32'], schema: () => z.int32(), values: [-(2 ** 31), 2 ** 31 - 1] },
  { covers: ['uint32'], schema: () => z.uint32(), values: [0, 2 ** 32 - 1] },
  { covers: ['float32'], schema: () => z.float32(), values: [3.4e38, -0, 1e-45] },
  { covers: ['float64'], schema: () => z.float64(), values: [1.7976931348623157e308, -0] },
  { covers: ['gt', '.gt', 'positive', '.positive'], schema: () => z.number().gt(0).positive(), values: [5e-324, 1] },
  { covers: ['gte', '.gte', '.min', 'nonnegative', '.nonnegative'], schema: () => z.number().gte(0).min(0).nonnegative(), values: [0, -0] },
  { covers: ['lt', '.lt', 'negative', '.negative'], schema: () => z.number().lt(0).negative(), values: [-5e-324] },
  { covers: ['lte', '.lte', '.max', 'nonpositive', '.nonpositive'], schema: () => z.number().lte(0).max(0).nonpositive(), values: [0, -0] },
  { covers: ['multipleOf', '.multipleOf', '.step'], schema: () => z.number().multipleOf(0.01), values: [19.99, 0.07, 1.1, 123456.78] },
  { covers: ['multipleOf'], schema: () => z.number().multipleOf(0.1), values: [0.3, 0.7] },
  { covers: ['multipleOf'], schema: () => z.number().multipleOf(1e-7), values: [1e-7, 0.3] },
  { covers: ['multipleOf'], schema: () => z.number().multipleOf(5), values: [2 ** 53 - 1, 1e21, 5e21, 10] },
  { covers: ['.finite'], schema: () => z.number(), values: [1] },
]

const ARRAY_CASES: Case[] = [
  { covers: ['array', '.element'], schema: () => z.array(z.string()), values: [[], [ASTRAL]] },
  { covers: ['.min', '.max', '.length', '.nonempty'], schema: () => z.array(z.number()).min(1).max(3).nonempty(), values: [[1], [1, 2, 3]] },
  { covers: ['tuple'], schema: () => z.tuple([z.string(), z.number()], z.boolean()), values: [['a', 1], ['a', 1, true]] },
]

const WRAPPER_CASES: Case[] = [
  { covers: ['optional', '.optional', 'exactOptional', '.exactOptional'], schema: () => z.string().optional(), values: [undefined, 'a'] },
  { covers: ['nullable', '.nullable', 'nullish', '.nullish'], schema: () => z.string().nullish(), values: [null, undefined, 'a'] },
  { covers: ['_default', '.default', 'prefault', '.prefault'], schema: () => z.number().default(1).prefault(2), values: [undefined, 5] },
  { covers: ['nonoptional', '.nonoptional'], schema: () => z.string().optional().nonoptional(), values: ['a'] },
  { covers: ['catch', '.catch'], schema: () => z.number().min(1).catch(1), values: ['ten', null, { a: 1 }, [1], 0, undefined] },
  { covers: ['readonly', '.readonly', '.brand'], schema: () => z.object({ a: z.string() }).readonly().brand<'b'>(), values: [{ a: 'x' }] },
  { covers: ['pipe', '.pipe'], schema: () => z.string().pipe(z.string().min(2)), values: ['ab', `${ASTRAL}${ASTRAL}`] },
  { covers: ['transform', '.transform'], schema: () => z.string().min(3).transform(s => s.length), values: ['abc', `ab${ASTRAL}`] },
  { covers: ['preprocess'], schema: () => z.preprocess(v => Number(v), z.number()), values: ['12', true, null, 3] },
  { covers: ['codec', 'invertCodec'], schema: () => z.codec(z.string(), z.number(), { decode: Number, encode: String }), values: ['12', '-0'] },
  { covers: ['coerce.number'], schema: () => z.coerce.number().min(1), values: ['12', true, [5], 3] },
  { covers: ['coerce.string'], schema: () => z.coerce.string().min(1), values: [null, 12, true, { a: 1 }] },
  { covers: ['coerce.boolean'], schema: () => z.coerce.boolean(), values: [null, 'no', 0, []] },
  { covers: ['lazy'], schema: () => z.lazy(() => z.string()), values: ['a'] },
  { covers: ['success'], schema: () => z.success(z.string()), values: ['a', ''] },
  { covers: ['custom'], schema: () => z.custom<unknown>(), values: [1, 'a', { a: [null] }, null] },
  { covers: ['instanceof'], schema: () => z.instanceof(Object), values: [{ a: 1 }, []] },
  { covers: ['any', 'unknown', 'json'], schema: () => z.object({ a: z.any(), b: z.unknown(), c: z.json() }), values: [{ a: 'x', b: [1], c: { d: null } }] },
  { covers: ['boolean', 'null', 'literal', 'enum', 'nativeEnum', 'keyof'], schema: () => z.object({ a: z.boolean(), b: z.null(), c: z.literal(['x', 1]), d: z.enum(['p', 'q']), e: z.nativeEnum({ A: 'a' }), f: z.keyof(z.object({ k: z.string() })) }), values: [{ a: true, b: null, c: 1, d: 'q', e: 'a', f: 'k' }] },
  { covers: ['object', 'strictObject', 'looseObject', 'property', 'properties', 'deepPartial'], schema: () => z.object({ a: z.strictObject({ b: z.string() }), c: z.looseObject({}) }), values: [{ a: { b: 'x' }, c: { any: [1] } }] },
  { covers: ['record', 'partialRecord', 'looseRecord'], schema: () => z.object({ r: z.record(z.string(), z.number()), p: z.partialRecord(z.enum(['a', 'b']), z.string()), l: z.looseRecord(z.string().regex(/^x/), z.number()) }), values: [{ r: { [ASTRAL]: 1 }, p: { a: 'x' }, l: { xa: 1, other: 'kept' } }] },
  { covers: ['union', 'xor', 'discriminatedUnion', '.or'], schema: () => z.union([z.string().regex(/^A$/i), z.xor([z.number(), z.boolean()]), z.discriminatedUnion('k', [z.object({ k: z.literal('a') })])]), values: ['a', 1, true, { k: 'a' }] },
  { covers: ['intersection', '.and'], schema: () => z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })), values: [{ a: 'x', b: 1 }] },
]

/** zod exports that build no schema of their own, or none a tool input can carry (each a build error). */
const NOT_INPUT_SCHEMAS = new Set([
  // utilities
  'clone', 'compile', 'config', 'decode', 'decodeAsync', 'encode', 'encodeAsync', 'flattenError', 'formatError', 'fromJSONSchema', 'getDiscriminatedOption', 'getErrorMap', 'input', 'memoizer', 'output', 'parse', 'parseAsync', 'prettifyError', 'registry', 'safeDecode', 'safeDecodeAsync', 'safeEncode', 'safeEncodeAsync', 'safeParse', 'safeParseAsync', 'setErrorMap', 'toJSONSchema', 'toZod', 'treeifyError', 'validate', 'validateAsync', 'withParser',
  // no JSON form: compileTool refuses them with a CompileError naming the fix
  'bigint', 'int64', 'uint64', 'date', 'file', 'map', 'set', 'symbol', 'undefined', 'void', 'nan', 'never', 'promise', 'function', '_function',
])

/** Methods every zod schema has (wrappers and parsing), covered by WRAPPER_CASES or not checks at all. */
const COMMON_METHODS = new Set(['constructor', '~standard', 'with', 'clone', 'register', 'array', 'transform', 'isOptional', 'isNullable', 'apply', 'parse', 'parseAsync', 'safeParse', 'safeParseAsync', 'spa', 'validate', 'validateAsync', 'encode', 'decode', 'encodeAsync', 'decodeAsync', 'safeEncode', 'safeDecode', 'safeEncodeAsync', 'safeDecodeAsync', 'toJSONSchema', 'description', '_def', 'format', 'minValue', 'maxValue', 'isInt', 'isFinite', 'unwrap', 'exclusive'])

/**
 * The method form of each format (`z.string().ipv6()` beside `z.ipv6()`), with the same values: zod
 * builds it otherwise (the format is a check of a plain string), so it is its own case.
 */
const METHOD_FORM_CASES: Case[] = STRING_CASES.flatMap((c) => {
  const name = c.covers[0]!.replace(/^iso\./, '')
  const method = (z.string() as unknown as Record<string, unknown>)[name]
  const isFormat = typeof (c.schema() as unknown as { _zod: { def: { format?: unknown } } })._zod.def.format === 'string'
  if (!isFormat || !c.covers.includes(`.${name}`) || typeof method !== 'function')
    return []
  return [{ covers: [`z.string().${name}()`], schema: () => (z.string() as unknown as Record<string, () => z.ZodType>)[name]!(), values: c.values }]
})

const ALL_CASES = [...STRING_CASES, ...METHOD_FORM_CASES, ...NUMBER_CASES, ...ARRAY_CASES, ...WRAPPER_CASES]
const covered = new Set(ALL_CASES.flatMap(c => c.covers))

function methodsOf(schema: object): string[] {
  const names = new Set<string>()
  for (let proto = Object.getPrototypeOf(schema); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto))
      names.add(name)
  }
  return [...names].filter(name => typeof (schema as Record<string, unknown>)[name] === 'function')
}

/** What each validator tried and rejected, printed once at the end. */
const tally = new Map(CLIENT_VALIDATORS.map(v => [v.name, { tried: 0, rejected: 0 }]))

/** The case at depth 0, and as a key two variants of a discriminated union share with other kinds. */
function placements(schema: z.ZodType): { where: string, input: z.ZodType, args: (v: unknown) => Record<string, unknown> }[] {
  return [
    { where: 'depth 0', input: z.object({ v: schema }), args: v => v === undefined ? {} : { v } },
    {
      where: 'collided key',
      input: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), v: schema }), z.object({ kind: z.literal('b'), v: z.number().int() })]),
      args: v => v === undefined ? { kind: 'a' } : { kind: 'a', v },
    },
  ]
}

describe('zod\'s whole surface under every client validator', () => {
  it('every schema-building export of zod has a case (or is listed as building no tool input)', () => {
    const exports = Object.keys(z).filter(name => /^_?[a-z]/.test(name) && typeof (z as Record<string, unknown>)[name] === 'function')
    const iso = Object.keys(z.iso).filter(name => /^[a-z]/.test(name)).map(name => `iso.${name}`)
    const coerce = Object.keys(z.coerce).filter(name => /^[a-z]/.test(name)).map(name => `coerce.${name}`)
    const missing = [...exports, ...iso, ...coerce].filter(name => !covered.has(name) && !NOT_INPUT_SCHEMAS.has(name) && !(name.startsWith('coerce.') && NOT_INPUT_SCHEMAS.has(name.slice(7))))
    expect(missing).toEqual([])
  })

  it('every format method of strings has a case of its own', () => {
    expect(METHOD_FORM_CASES.map(c => c.covers[0])).toEqual(expect.arrayContaining(['z.string().ipv6()', 'z.string().cidrv6()', 'z.string().uuid()', 'z.string().email()', 'z.string().datetime()', 'z.string().duration()']))
  })

  it('every check method of strings, numbers and arrays has a case', () => {
    const missing = [z.string(), z.number(), z.array(z.string())].flatMap(schema => methodsOf(schema).map(name => `.${name}`))
      .filter(name => !covered.has(name) && !COMMON_METHODS.has(name.slice(1)) && !covered.has(name.slice(1)))
    expect([...new Set(missing)]).toEqual([])
  })

  for (const profile of FLATTEN_PROFILE_NAMES) {
    for (const c of ALL_CASES) {
      it(`${c.covers[0]} (${profile}): ${c.values.length} edge values`, () => {
        for (const { where, input, args } of placements(c.schema())) {
          const compiled = compileTool({ name: 'edge', input }, { profile })
          for (const value of c.values) {
            const sent = args(value)
            expect(input.safeParse(sent).success, `zod accepts ${JSON.stringify(value)}`).toBe(true)
            const wire = JSON.parse(JSON.stringify(sent)) as unknown
            const rejecting = rejectedBy(compiled.inputSchema, wire)
            for (const validator of CLIENT_VALIDATORS) {
              const entry = tally.get(validator.name)!
              entry.tried++
              entry.rejected += rejecting.includes(validator.name) ? 1 : 0
            }
            expect(rejecting, `${where}: ${JSON.stringify(wire)} under ${JSON.stringify(compiled.inputSchema)}`).toEqual([])
          }
        }
      })
    }
  }

  afterAll(() => {
    const rows = [...tally].map(([name, { tried, rejected }]) => `  ${name.padEnd(24)} ${String(tried).padStart(5)} tried, ${rejected} rejected`)
    console.log(`zod edge values the parser accepts, per client validator:\n${rows.join('\n')}`)
  })
})
