import type * as Morph from 'ts-morph'
import type { Expression, Node as TsNode } from 'ts-morph'

export interface SourceLocation {
  line: number
  column: number
}

type TsMorph = typeof Morph

/** zod factories whose first argument is an object's shape. */
const FACTORIES_WITH_SHAPE = new Set(['object', 'strictObject', 'looseObject'])

/**
 * Where an error is in a tool module, for error messages: the zod expression at `pointer` (a JSON
 * pointer into the original JSON Schema of the tool's `part`), followed through the tool's object
 * literal as far as the source allows; else the `defineTool` call; else the export. ts-morph is
 * loaded only here, when a build is already failing, so it costs nothing otherwise.
 */
export async function locateTool(file: string, exportName: string, part?: string, pointer?: string): Promise<SourceLocation | undefined> {
  try {
    const morph = await import('ts-morph')
    const project = new morph.Project({ useInMemoryFileSystem: false, skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: true } })
    const source = project.addSourceFileAtPath(file)
    const [binding, ...steps] = exportName.match(/[^.[\]]+/g) ?? [exportName]
    const declaration = source.getExportedDeclarations().get(binding!)?.[0]
    if (!declaration)
      return undefined
    let found: TsNode = declaration
    let expression = initializerOf(morph, declaration)
    for (const step of steps) {
      expression = expression && elementOf(morph, resolve(morph, expression), step)
      if (expression)
        found = expression
    }
    // The tool's object literal, then its `input`/`params`, then the schema at the pointer.
    const options = expression && firstObjectArgument(morph, resolve(morph, expression))
    const schema = options && part ? propertyValue(morph, options, part) : undefined
    if (expression)
      found = expression
    if (schema) {
      found = schema
      let at: Expression | undefined = schema
      const segments = (pointer ?? '').split('/').slice(1).map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      for (let i = 0; at && i < segments.length; i++) {
        const next = schemaAt(morph, at, segments[i]!, segments[i + 1])
        if (next === undefined)
          break
        if (next.consumed === 2)
          i++
        at = next.node
        if (at)
          found = at
      }
    }
    const { line, column } = source.getLineAndColumnAtPos(found.getStart())
    return { line, column }
  }
  catch {
    return undefined
  }
}

function initializerOf(morph: TsMorph, declaration: TsNode): Expression | undefined {
  if (morph.Node.isVariableDeclaration(declaration))
    return declaration.getInitializer()
  if (morph.Node.isExportAssignment(declaration))
    return declaration.getExpression()
  return morph.Node.isExpression(declaration) ? declaration : undefined
}

/** An identifier's initializer in the same file, and through parentheses, `as` and `satisfies`. */
function resolve(morph: TsMorph, expression: Expression, depth = 0): Expression {
  if (depth > 16)
    return expression
  if (morph.Node.isParenthesizedExpression(expression) || morph.Node.isAsExpression(expression) || morph.Node.isSatisfiesExpression(expression))
    return resolve(morph, expression.getExpression(), depth + 1)
  if (morph.Node.isIdentifier(expression)) {
    const declaration = expression.getSymbol()?.getDeclarations()[0]
    const initializer = declaration && morph.Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined
    return initializer ? resolve(morph, initializer, depth + 1) : expression
  }
  return expression
}

/** `[1]` of an array literal or `.name` of an object literal. */
function elementOf(morph: TsMorph, container: Expression, step: string): Expression | undefined {
  if (morph.Node.isArrayLiteralExpression(container) && /^\d+$/.test(step))
    return container.getElements()[Number(step)]
  if (morph.Node.isObjectLiteralExpression(container))
    return propertyValue(morph, container, step)
  return undefined
}

function propertyValue(morph: TsMorph, object: Expression, key: string): Expression | undefined {
  if (!morph.Node.isObjectLiteralExpression(object))
    return undefined
  const property = object.getProperty(key) ?? object.getProperty(`'${key}'`) ?? object.getProperty(`"${key}"`)
  if (morph.Node.isPropertyAssignment(property))
    return property.getInitializer()
  if (morph.Node.isShorthandPropertyAssignment(property))
    return property.getNameNode()
  return undefined
}

function firstObjectArgument(morph: TsMorph, call: Expression): Expression | undefined {
  if (morph.Node.isObjectLiteralExpression(call))
    return call
  if (!morph.Node.isCallExpression(call))
    return undefined
  const first = call.getArguments()[0]
  return first && morph.Node.isExpression(first) ? resolve(morph, first) : undefined
}

/** A call `<base>.<name>(args)`: its method name, base and arguments. */
function methodCall(morph: TsMorph, expression: Expression): { name: string, base: Expression, args: Expression[] } | undefined {
  if (!morph.Node.isCallExpression(expression))
    return undefined
  const callee = expression.getExpression()
  if (!morph.Node.isPropertyAccessExpression(callee))
    return undefined
  return { name: callee.getName(), base: callee.getExpression(), args: expression.getArguments().filter(a => morph.Node.isExpression(a)) as Expression[] }
}

/**
 * The zod expression for one step of a JSON pointer from `expression`: `properties/<key>` of an
 * object (or its `.extend()`), `items` of an array, `anyOf|oneOf/<i>` of a union, `prefixItems/<i>`
 * of a tuple, `additionalProperties` of a record. Walks down method chains (`.optional()`,
 * `.describe()`…) to the factory. `consumed` says how many segments the step used; undefined: no
 * further in the source.
 */
function schemaAt(morph: TsMorph, start: Expression, segment: string, next: string | undefined): { node: Expression | undefined, consumed: 1 | 2 } | undefined {
  for (let expression: Expression | undefined = resolve(morph, start), depth = 0; expression && depth < 32; depth++) {
    const call = methodCall(morph, expression)
    if (!call)
      return undefined
    const { name, base, args } = call
    const arg = (index: number): Expression | undefined => args[index] && resolve(morph, args[index]!)
    const element = (list: Expression | undefined, index: string | undefined): Expression | undefined =>
      list && morph.Node.isArrayLiteralExpression(list) && index !== undefined ? list.getElements()[Number(index)] : undefined
    if (segment === 'properties' && next !== undefined) {
      if (FACTORIES_WITH_SHAPE.has(name) || name === 'extend' || name === 'safeExtend') {
        const value = propertyValue(morph, arg(0) ?? base, next)
        if (value)
          return { node: value, consumed: 2 }
      }
    }
    else if (segment === 'items' && (name === 'array' || name === 'set')) {
      return { node: morph.Node.isIdentifier(base) && args.length > 0 ? args[0] : base, consumed: 1 }
    }
    else if ((segment === 'anyOf' || segment === 'oneOf') && next !== undefined) {
      if (name === 'union' || name === 'xor')
        return { node: element(arg(0), next), consumed: 2 }
      if (name === 'discriminatedUnion')
        return { node: element(arg(morph.Node.isArrayLiteralExpression(arg(0)) ? 0 : 1), next), consumed: 2 }
      if (name === 'or')
        return { node: next === '0' ? base : args[0], consumed: 2 }
      if (name === 'nullable' || name === 'optional' || name === 'nullish')
        return { node: base, consumed: 2 }
    }
    else if (segment === 'prefixItems' && next !== undefined && name === 'tuple') {
      return { node: element(arg(0), next), consumed: 2 }
    }
    else if (segment === 'additionalProperties' && (name === 'record' || name === 'partialRecord')) {
      return { node: args[1], consumed: 1 }
    }
    else if (segment === 'additionalProperties' && name === 'catchall') {
      return { node: args[0], consumed: 1 }
    }
    // A method that keeps the schema's place (`.optional()`, `.describe()`, `.min()`…): look at its base.
    if (morph.Node.isIdentifier(base) && !['extend', 'safeExtend'].includes(name))
      return undefined
    expression = resolve(morph, base)
  }
  return undefined
}
