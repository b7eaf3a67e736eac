// Tool inputs in the shapes other languages' generators write, for the generators no toolchain here
// runs (Go, Rust, C#). Each is written for these tests after a public server's tool, named in
// `after`; `preset` is the parser the generator writes for. The Python ones are served for real
// (test/python/).
import type { JsonSchemaObject, PresetName } from '@flatmcp/core'

export interface GeneratedSchema {
  name: string
  preset: PresetName
  /** The public tool whose shape it follows, and the generator. */
  after: string
  schema: JsonSchemaObject
}

/** google/jsonschema-go: structs closed, slices and pointers `["null", T]`, `interface{}` as `{}`, fields required unless `omitempty`. */
const go: GeneratedSchema[] = [
  {
    name: 'actions_list',
    preset: 'go',
    after: 'github/github-mcp-server actions_list (jsonschema-go)',
    schema: {
      type: 'object',
      properties: {
        method: { type: 'string', enum: ['list_workflows', 'list_workflow_runs', 'list_workflow_jobs'], description: 'The action to perform' },
        owner: { type: 'string', description: 'Repository owner' },
        repo: { type: 'string', description: 'Repository name' },
        resource_id: { type: 'string' },
        workflow_runs_filter: { type: ['null', 'object'], properties: { actor: { type: 'string' }, branch: { type: 'string' }, status: { type: 'string', enum: ['queued', 'in_progress', 'completed'] } }, additionalProperties: false },
        page: { type: 'integer', minimum: 1 },
        perPage: { type: 'integer', minimum: 1, maximum: 100 },
      },
      required: ['method', 'owner', 'repo'],
      additionalProperties: false,
    },
  },
  {
    name: 'helm_install',
    preset: 'go',
    after: 'containers/kubernetes-mcp-server helm_install (jsonschema-go)',
    schema: {
      type: 'object',
      properties: {
        chart: { type: 'string', description: 'Chart reference to install' },
        values: { type: 'object', description: 'Values to pass to the chart' },
        name: { type: 'string' },
        namespace: { type: 'string' },
        labels: { type: ['null', 'object'], additionalProperties: { type: 'string' } },
      },
      required: ['chart'],
      additionalProperties: false,
    },
  },
  {
    name: 'resources_create',
    preset: 'go',
    after: 'containers/kubernetes-mcp-server kubevirt parameters; a Go struct with slices, pointers and interface{}',
    schema: {
      type: 'object',
      properties: {
        names: { type: ['null', 'array'], items: { type: 'string' } },
        limit: { type: ['null', 'integer'], minimum: -2147483648, maximum: 2147483647 },
        parameters: { type: 'object', additionalProperties: { type: 'string' } },
        filter: { type: ['null', 'object'], properties: { kind: { type: 'string' }, ids: { type: ['null', 'array'], items: { type: 'integer' } } }, required: ['kind'], additionalProperties: false },
        extra: {},
      },
      required: ['names', 'parameters'],
      additionalProperties: false,
    },
  },
]

/** schemars 1.x: 2020-12 with `$defs`, integer widths as formats, `Option<T>` as `[T, "null"]`, serde-tagged enums as `oneOf`. */
const serde: GeneratedSchema[] = [
  {
    name: 'counter_sum',
    preset: 'serde',
    after: 'modelcontextprotocol/rust-sdk counter example sum (schemars)',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { type: 'integer', format: 'int32' }, b: { type: 'integer', format: 'int32' }, note: { type: ['string', 'null'] } },
      required: ['a', 'b'],
    },
  },
  {
    name: 'apply_ops',
    preset: 'serde',
    after: 'a rmcp tool taking #[serde(tag = "type")] enum Op (schemars)',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { ops: { type: 'array', items: { $ref: '#/$defs/Op' } }, meta: { type: 'object', additionalProperties: true }, dry_run: { type: 'boolean', default: false } },
      required: ['ops'],
      $defs: {
        Op: {
          oneOf: [
            { type: 'object', properties: { type: { type: 'string', const: 'Add' }, x: { type: 'integer', format: 'uint32', minimum: 0 } }, required: ['type', 'x'] },
            { type: 'object', properties: { type: { type: 'string', const: 'Remove' }, id: { type: 'string', pattern: '^\\w+$' }, reason: { type: ['string', 'null'] } }, required: ['type', 'id'] },
          ],
        },
      },
    },
  },
]

/** The C# SDK's exporter: nullable parameters as `[T, "null"]` with `default: null`, `JsonElement` as any value. */
const dotnet: GeneratedSchema[] = [
  {
    name: 'search_docs',
    preset: 'dotnet',
    after: 'modelcontextprotocol/csharp-sdk samples (System.Text.Json JsonSchemaExporter)',
    schema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to search for' },
        limit: { type: ['integer', 'null'], default: null },
        tags: { type: ['array', 'null'], items: { type: 'string' }, default: null },
        metadata: { description: 'Free-form metadata' },
      },
      required: ['query'],
    },
  },
]

export const GENERATED_SCHEMAS: GeneratedSchema[] = [...go, ...serde, ...dotnet]
