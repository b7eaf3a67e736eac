import { readFileSync } from 'node:fs'
import { parse } from '@babel/parser'

export interface SourceLocation {
  line: number
  column: number
}

/** zod factories whose first argument is an object's shape. */
const FACTORIES_WITH_SHAPE = new Set(['object', 'strictObject', 'looseObject'])

/** A node of Babel's AST, read loosely: the walk checks each field it uses. */
interface AnyNode {
  type: string
  loc?: { start: { line: number, column: number } } | null
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any
}

/** The last module parsed, with its text: a module's warnings are located one after another in it. */
let lastParsed: { file: string, text: string, program: AnyNode } | undefined

function programOf(file: string): AnyNode {
  const text = readFileSync(file, 'utf8')
  if (lastParsed?.file === file && lastParsed.text === text)
    return lastParsed.program
  const typed = /\.[cm]?tsx?$/.test(file)
  const plugins = [...(typed ? ['typescript' as const] : []), ...(/x$/.test(file) ? ['jsx' as const] : [])]
  const program = parse(text, { sourceType: 'module', plugins, errorRecovery: true }).program as unknown as AnyNode
  lastParsed = { file, text, program }
  return program
}

/**
 * Where an error is in a tool module, for error messages: the zod expression at `pointer` (a JSON
 * pointer into the original JSON Schema of the tool's `part`), followed through the tool's object
 * literal as far as the source allows; else the `defineTool` call; else the export. The module is
 * parsed with the plugin's own parser (TypeScript and JSX syntax), so locations never depend on which
 * TypeScript the project has, or on having one.
 */
export async function locateTool(file: string, exportName: string, part?: string, pointer?: string): Promise<SourceLocation | undefined> {
  try {
    const program = programOf(file)
    const walker = new SchemaWalker(program.body as AnyNode[])
    const [binding, ...steps] = exportName.match(/[^.[\]]+/g) ?? [exportName]
    let found: AnyNode | undefined = walker.exported(binding!)
    let expression = found && walker.initializer(found)
    for (const step of steps) {
      expression = expression && walker.element(walker.resolve(expression), step)
      if (expression)
        found = expression
    }
    if (expression)
      found = expression
    // The tool's object literal, then its `input`/`params`, then the schema at the pointer.
    const options = expression && walker.firstObjectArgument(walker.resolve(expression))
    let at = options && part ? walker.property(options, part) : undefined
    if (at) {
      found = at
      const segments = (pointer ?? '').split('/').slice(1).map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      for (let i = 0; at && i < segments.length; i++) {
        const next = walker.schemaAt(at, segments[i]!, segments[i + 1])
        if (next === undefined)
          break
        i += next.consumed - 1
        at = next.node
        if (at)
          found = at
      }
    }
    const start = found?.loc?.start
    return start ? { line: start.line, column: start.column + 1 } : undefined
  }
  catch {
    return undefined
  }
}

const nameOf = (key: AnyNode | undefined): string | undefined =>
  key?.type === 'Identifier' ? key.name as string : key?.type === 'StringLiteral' ? key.value as string : undefined

/** Steps through one module's syntax: exports, same-file identifiers, literals and zod calls. */
class SchemaWalker {
  constructor(private readonly body: AnyNode[]) {}

  /** The top-level variable of this name (exported or not), or the default export's expression. */
  exported(name: string): AnyNode | undefined {
    for (const statement of this.body) {
      if (name === 'default' && statement.type === 'ExportDefaultDeclaration')
        return statement.declaration as AnyNode
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration as AnyNode | null : statement
      if (declaration?.type !== 'VariableDeclaration')
        continue
      const found = (declaration.declarations as AnyNode[]).find(d => nameOf(d.id) === name)
      if (found)
        return found
    }
    return undefined
  }

  initializer(node: AnyNode): AnyNode | undefined {
    if (node.type === 'VariableDeclarator')
      return node.init ?? undefined
    return node.type.endsWith('Declaration') ? undefined : node
  }

  /** An identifier's initializer in this file, and through parentheses, `as`, `satisfies` and `!`. */
  resolve(expression: AnyNode, depth = 0): AnyNode {
    if (depth > 16)
      return expression
    if (['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'ParenthesizedExpression'].includes(expression.type))
      return this.resolve(expression.expression as AnyNode, depth + 1)
    if (expression.type === 'Identifier') {
      const declaration = this.exported(expression.name as string)
      const initializer = declaration && this.initializer(declaration)
      return initializer && initializer !== expression ? this.resolve(initializer, depth + 1) : expression
    }
    return expression
  }

  /** `[1]` of an array literal or `.name` of an object literal. */
  element(container: AnyNode, step: string): AnyNode | undefined {
    if (container.type === 'ArrayExpression' && /^\d+$/.test(step))
      return (container.elements as AnyNode[])[Number(step)] ?? undefined
    return this.property(container, step)
  }

  property(object: AnyNode, key: string): AnyNode | undefined {
    if (object.type !== 'ObjectExpression')
      return undefined
    for (const property of object.properties as AnyNode[]) {
      if (property.type === 'ObjectProperty' && !property.computed && nameOf(property.key) === key)
        return property.value as AnyNode
    }
    return undefined
  }

  firstObjectArgument(call: AnyNode): AnyNode | undefined {
    if (call.type === 'ObjectExpression')
      return call
    const first = call.type === 'CallExpression' ? (call.arguments as AnyNode[])[0] : undefined
    return first && this.resolve(first)
  }

  /**
   * The zod expression for one step of a JSON pointer: `properties/<key>` of an object (or its
   * `.extend()`), `items` of an array, `anyOf|oneOf/<i>` of a union, `prefixItems/<i>` of a tuple,
   * `additionalProperties` of a record or catchall. Walks down method chains (`.optional()`,
   * `.describe()`…) to the factory. `consumed`: how many segments the step used; undefined: the
   * source goes no further.
   */
  schemaAt(start: AnyNode, segment: string, next: string | undefined): { node: AnyNode | undefined, consumed: 1 | 2 } | undefined {
    for (let expression = this.resolve(start), depth = 0; depth < 32; depth++) {
      const callee = expression.type === 'CallExpression' ? expression.callee as AnyNode : undefined
      if (!callee || callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier')
        return undefined
      const name = callee.property.name as string
      const base = callee.object as AnyNode
      const args = expression.arguments as AnyNode[]
      const arg = (index: number): AnyNode | undefined => args[index] && this.resolve(args[index])
      const element = (list: AnyNode | undefined): AnyNode | undefined =>
        list?.type === 'ArrayExpression' && next !== undefined ? (list.elements as AnyNode[])[Number(next)] ?? undefined : undefined
      if (segment === 'properties' && next !== undefined && (FACTORIES_WITH_SHAPE.has(name) || name === 'extend' || name === 'safeExtend')) {
        const value = this.property(arg(0) ?? base, next)
        if (value)
          return { node: value, consumed: 2 }
      }
      else if (segment === 'items' && (name === 'array' || name === 'set')) {
        return { node: args[0] ?? base, consumed: 1 }
      }
      else if ((segment === 'anyOf' || segment === 'oneOf') && next !== undefined) {
        if (name === 'union' || name === 'xor')
          return { node: element(arg(0)), consumed: 2 }
        if (name === 'discriminatedUnion')
          return { node: element(arg(0)?.type === 'ArrayExpression' ? arg(0) : arg(1)), consumed: 2 }
        if (name === 'or')
          return { node: next === '0' ? base : args[0], consumed: 2 }
        if (name === 'nullable' || name === 'optional' || name === 'nullish')
          return { node: base, consumed: 2 }
      }
      else if (segment === 'prefixItems' && next !== undefined && name === 'tuple') {
        return { node: element(arg(0)), consumed: 2 }
      }
      else if (segment === 'additionalProperties' && (name === 'record' || name === 'partialRecord')) {
        return { node: args[1], consumed: 1 }
      }
      else if (segment === 'additionalProperties' && name === 'catchall') {
        return { node: args[0], consumed: 1 }
      }
      // A factory (`z.<name>(…)`) ends the chain; any other method keeps the schema's place.
      if (base.type === 'Identifier' && name !== 'extend' && name !== 'safeExtend')
        return undefined
      expression = this.resolve(base)
    }
    return undefined
  }
}
