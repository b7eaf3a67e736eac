import type * as Ts from 'typescript'
import { readFileSync } from 'node:fs'

export interface SourceLocation {
  line: number
  column: number
}

type TypeScript = typeof Ts

/** zod factories whose first argument is an object's shape. */
const FACTORIES_WITH_SHAPE = new Set(['object', 'strictObject', 'looseObject'])

/**
 * Where an error is in a tool module, for error messages: the zod expression at `pointer` (a JSON
 * pointer into the original JSON Schema of the tool's `part`), followed through the tool's object
 * literal as far as the source allows; else the `defineTool` call; else the export. TypeScript (the
 * project's own, an optional peer) is loaded only here, when a build is already failing; without it
 * errors name no line.
 */
export async function locateTool(file: string, exportName: string, part?: string, pointer?: string): Promise<SourceLocation | undefined> {
  try {
    const ts = ((await import('typescript')) as { default?: TypeScript }).default ?? (await import('typescript') as TypeScript)
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const walker = new SchemaWalker(ts, source)
    const [binding, ...steps] = exportName.match(/[^.[\]]+/g) ?? [exportName]
    let found: Ts.Node | undefined = walker.exported(binding!)
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
    if (!found)
      return undefined
    const { line, character } = source.getLineAndCharacterOfPosition(found.getStart(source))
    return { line: line + 1, column: character + 1 }
  }
  catch {
    return undefined
  }
}

/** Steps through one source file's syntax: exports, same-file identifiers, literals and zod calls. */
class SchemaWalker {
  constructor(private readonly ts: TypeScript, private readonly source: Ts.SourceFile) {}

  /** The top-level variable of this name, or the default export's expression. */
  exported(name: string): Ts.Node | undefined {
    for (const statement of this.source.statements) {
      if (name === 'default' && this.ts.isExportAssignment(statement))
        return statement.expression
      const declaration = this.ts.isVariableStatement(statement) ? statement.declarationList.declarations.find(d => this.ts.isIdentifier(d.name) && d.name.text === name) : undefined
      if (declaration)
        return declaration
    }
    return undefined
  }

  initializer(node: Ts.Node): Ts.Expression | undefined {
    if (this.ts.isVariableDeclaration(node))
      return node.initializer
    return this.ts.isExpression(node) ? node : undefined
  }

  /** An identifier's initializer in this file, and through parentheses, `as` and `satisfies`. */
  resolve(expression: Ts.Expression, depth = 0): Ts.Expression {
    const { ts } = this
    if (depth > 16)
      return expression
    if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression))
      return this.resolve(expression.expression, depth + 1)
    if (ts.isIdentifier(expression)) {
      const declaration = this.exported(expression.text)
      const initializer = declaration && this.initializer(declaration)
      return initializer && initializer !== expression ? this.resolve(initializer, depth + 1) : expression
    }
    return expression
  }

  /** `[1]` of an array literal or `.name` of an object literal. */
  element(container: Ts.Expression, step: string): Ts.Expression | undefined {
    if (this.ts.isArrayLiteralExpression(container) && /^\d+$/.test(step))
      return container.elements[Number(step)]
    return this.property(container, step)
  }

  property(object: Ts.Expression, key: string): Ts.Expression | undefined {
    const { ts } = this
    if (!ts.isObjectLiteralExpression(object))
      return undefined
    for (const property of object.properties) {
      const name = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined
      if (name !== key)
        continue
      if (ts.isPropertyAssignment(property))
        return property.initializer
      if (ts.isShorthandPropertyAssignment(property))
        return property.name
    }
    return undefined
  }

  firstObjectArgument(call: Ts.Expression): Ts.Expression | undefined {
    if (this.ts.isObjectLiteralExpression(call))
      return call
    const first = this.ts.isCallExpression(call) ? call.arguments[0] : undefined
    return first && this.resolve(first)
  }

  /**
   * The zod expression for one step of a JSON pointer: `properties/<key>` of an object (or its
   * `.extend()`), `items` of an array, `anyOf|oneOf/<i>` of a union, `prefixItems/<i>` of a tuple,
   * `additionalProperties` of a record or catchall. Walks down method chains (`.optional()`,
   * `.describe()`…) to the factory. `consumed`: how many segments the step used; undefined: the
   * source goes no further.
   */
  schemaAt(start: Ts.Expression, segment: string, next: string | undefined): { node: Ts.Expression | undefined, consumed: 1 | 2 } | undefined {
    const { ts } = this
    for (let expression = this.resolve(start), depth = 0; depth < 32; depth++) {
      if (!ts.isCallExpression(expression) || !ts.isPropertyAccessExpression(expression.expression))
        return undefined
      const name = expression.expression.name.text
      const base = expression.expression.expression
      const args = expression.arguments
      const arg = (index: number): Ts.Expression | undefined => args[index] && this.resolve(args[index])
      const element = (list: Ts.Expression | undefined): Ts.Expression | undefined =>
        list && ts.isArrayLiteralExpression(list) && next !== undefined ? list.elements[Number(next)] : undefined
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
          return { node: element(arg(0) && ts.isArrayLiteralExpression(arg(0)!) ? arg(0) : arg(1)), consumed: 2 }
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
      if (ts.isIdentifier(base) && name !== 'extend' && name !== 'safeExtend')
        return undefined
      expression = this.resolve(base)
    }
    return undefined
  }
}
