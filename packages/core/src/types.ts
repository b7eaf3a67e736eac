import type { FlattenProfileName } from './profiles/names'

/** A JSON Schema document or subschema (2020-12 / draft-07 vocabulary). Booleans are schemas too. */
export type JsonSchema = JsonSchemaObject | boolean

export interface JsonSchemaObject {
  [keyword: string]: unknown
}

/** A JSON pointer (RFC 6901), `''` for the document root. */
export type JsonPointer = string

export type Severity = 'error' | 'warning' | 'info'

export interface Diagnostic {
  code: DiagnosticCode
  severity: Severity
  /** Where in the schema handed to the compiler (for a tool: in that part's original schema) it happened. */
  path: JsonPointer
  /** The same place in the flattened schema, where it has one. */
  flatPath?: JsonPointer
  message: string
}

export type DiagnosticCode =
  | 'malformed-schema'
  | 'union-left-alone'
  | 'union-widened'
  | 'non-string-discriminator'
  | 'untyped-leaf'
  | 'keyword-dropped'
  | 'keyword-rewritten'
  | 'format-moved'
  | 'description-cut'
  | 'ref-unresolved'
  | 'recursion-truncated'
  | 'depth-limit'
  | 'size-limit'
  | 'invisible-constraint'
  | 'root-not-object'
  | 'strict-fallback'
  | 'encoded-as-json'
  | 'target-limit'
  | 'header-lost'
  | 'generator-preset'
  | 'generator-noise'
  | 'larger-than-original'
  | 'default-left-out'
  | 'output-left-out'
  | 'example-too-large'

/**
 * What a JSON Schema cannot show about a node, gathered from the schema library at compile time:
 * - `refine`: a `.refine()` / `.check()` / custom check;
 * - `overwrite`: `.trim()`, `.toLowerCase()` and other value rewrites that run before later checks;
 * - `transform`: a `.transform()` (the JSON shows the input side only);
 * - `pipe`: a `.pipe()` whose output side adds checks the JSON does not show;
 * - `preprocess`: a `z.preprocess()`, which may accept inputs of any shape;
 * - `coerce`: `z.coerce.*`, which accepts values of other types;
 * - `catch`: `.catch()`, which accepts anything, even a missing key.
 */
export type InvisibleConstraint = 'refine' | 'overwrite' | 'transform' | 'pipe' | 'preprocess' | 'coerce' | 'catch'

/** Facts about one node of the original schema that its JSON does not carry. */
export interface SchemaNote {
  invisible?: InvisibleConstraint[]
  /** The discriminator key the schema library declared for this union. */
  discriminator?: string
  /** The JSON says "any value" (or wider), yet the schema rejects `null`. */
  rejectsNull?: true
  /** The flags the library tests this node's `pattern` with (its RegExp's, which the JSON loses). */
  patternFlags?: string
  /** This node's `pattern` only approximates the library's check, which accepts strings it rejects. */
  patternInexact?: true
  /** This node's `minLength` counts UTF-16 code units (validators count code points). */
  lengthInUnits?: true
  /** This node's `pattern` is its string format's own check: where the `format` is kept, it says as much in fewer tokens. */
  patternOfFormat?: true
  /**
   * This node's `format` is the library's name for one of its checks (zod writes `format:
   * "includes"` beside `.includes()`'s pattern), not a format any validator knows.
   */
  formatIsCheckLabel?: true
  /** This node's `pattern` in words, for where the pattern cannot stay. */
  patternInWords?: string
}

/**
 * How a schema library's parser reads keywords that JSON Schema validators read otherwise. The
 * compiler rewrites each such keyword so validators accept at least what the parser does.
 */
export interface ParserSemantics {
  /** Flags the parser tests a `pattern` with when its node says none: `''` is JavaScript's legacy mode, `'u'` what validators use. */
  patternFlags: string
  /** What a string length counts: UTF-16 code units (JavaScript's `.length`) or code points (JSON Schema's). */
  lengthUnit: 'utf16' | 'codepoint'
  /** `multipleOf` as the validators divide (`validator`), or by the library's own remainder check (`library`). */
  multipleOf: 'validator' | 'library'
  /** Formats whose library check accepts nothing a format-asserting validator rejects; `'all'` when the validators are the parser. */
  trustedFormats: readonly string[] | 'all'
  /** What an object that neither forbids nor describes extra keys does with a key it does not declare. */
  unknownKeys: 'strip' | 'keep'
  /**
   * How the parser finds an object's keys: `own` keys of non-array objects (zod, validators), or
   * with JavaScript's `in` and `typeof`, where inherited keys count and an array is an object.
   */
  objectKeys: 'own' | 'in'
  /** What a `$ref` with sibling keywords means: both apply (2020-12), or only the reference (draft-07 and earlier). */
  refSiblings: 'and' | 'ignored'
  /**
   * Where a key left out and the same key sent as `null` give the parser the same output: nowhere
   * (a validator, zod), where the key's default is `null` (pydantic, .NET), or wherever an optional
   * key takes `null` (Go's encoding/json, serde's `Option`).
   */
  nullAsAbsent: 'never' | 'default-null' | 'nullable'
}

/** Notes keyed by the JSON pointer of the node they describe in the original schema. */
export type SchemaNotes = Record<JsonPointer, SchemaNote>

export type { FlattenProfileName, ProfileName, TargetName } from './profiles/names'

/** The parsers a generated JSON Schema may have been written for (see `presets/`). */
export type { PresetName } from './profiles/names'

export interface FlattenOptions {
  profile?: FlattenProfileName
  notes?: SchemaNotes
  /** How the original's parser reads the schema; by default, as a JSON Schema validator does. */
  semantics?: Partial<ParserSemantics>
}

export interface FlattenResult {
  schema: JsonSchema
  diagnostics: Diagnostic[]
}
