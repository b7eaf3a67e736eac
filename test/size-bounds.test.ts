// The size bounds of every package's sources (core, runtime, unplugin, cli): no function longer than
// 80 lines and no file longer than 300, so each reads in one sitting. Functions are measured with the TypeScript
// compiler: every function-like node with a body, from its first token to its last.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/client'

const FUNCTION_LINES = 80
const FILE_LINES = 300
const PACKAGES = ['core', 'runtime', 'unplugin', 'cli']

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : []
  })
}

/** A function-like node's name as a reader finds it: its own, else the variable, property or key it is bound to. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined)
    return node.name.getText()
  const parent = node.parent
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined)
    return parent.name.getText()
  if (ts.isConstructorDeclaration(node))
    return 'constructor'
  return '(anonymous)'
}

/** Each function of a file longer than the bound, as `file name (lines)`. */
function longFunctions(file: string, relative: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1
      if (lines > FUNCTION_LINES)
        found.push(`${relative} ${nameOf(node as ts.FunctionLikeDeclaration)} (${lines})`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const lineCount = (file: string): number => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length

describe.each(PACKAGES)('packages/%s/src', (pkg) => {
  const src = path.join(ROOT, 'packages', pkg, 'src')
  const files = sources(src).map(file => ({ file, relative: `${pkg}/${path.relative(path.join(ROOT, 'packages'), file).split(path.sep).slice(1).join('/')}` }))

  it(`has no function over ${FUNCTION_LINES} lines`, () => {
    const over = files.flatMap(({ file, relative }) => longFunctions(file, relative))
    expect(over).toEqual([])
  })

  it(`has no file over ${FILE_LINES} lines`, () => {
    const over = files.filter(({ file }) => lineCount(file) > FILE_LINES).map(({ file, relative }) => `${relative} (${lineCount(file)})`)
    expect(over).toEqual([])
  })
})
