import type { JsonPointer, JsonSchemaObject, SchemaNote, SchemaNotes } from '../types'
import { childPointer, isSchemaObject } from '../json'
import { UnrepresentableError } from './interface'

/**
 * Front ends whose library converts through hooks leave what the JSON cannot show as marks on the
 * JSON nodes; the marks become notes by pointer once the conversion is done.
 */
const MARK = 'x-flatmcp-note'
const UNREPRESENTABLE = 'x-flatmcp-unrepresentable'

interface Unrepresentable { kind: string, detail: string }

export function mergeNotes(a: SchemaNote | undefined, b: SchemaNote): SchemaNote {
  const invisible = [...new Set([...(a?.invisible ?? []), ...(b.invisible ?? [])])]
  const out: SchemaNote = { ...a, ...b }
  if (invisible.length > 0)
    out.invisible = invisible
  return out
}

/** Leaves a note on a JSON node (merged with one already there). */
export function mark(json: JsonSchemaObject, note: SchemaNote): void {
  if (Object.keys(note).length > 0)
    json[MARK] = mergeNotes(json[MARK] as SchemaNote | undefined, note)
}

/** The note a node was marked with so far (before `takeMarks`). */
export function noteOf(json: JsonSchemaObject): SchemaNote | undefined {
  return json[MARK] as SchemaNote | undefined
}

/** Marks a node the library could not convert; `takeMarks` throws with its pointer. */
export function markUnrepresentable(json: JsonSchemaObject, kind: string, detail: string): void {
  json[UNREPRESENTABLE] = { kind, detail } satisfies Unrepresentable
}

/** Whether a schema accepts null, asked of its own Standard Schema validate. */
export function takesNull(schema: unknown): boolean {
  return takesValue(schema, null)
}

/** Whether a schema accepts a value, asked of its own Standard Schema validate (a throwing or async check counts as yes). */
export function takesValue(schema: unknown, value: unknown): boolean {
  try {
    const result = (schema as { '~standard': { validate: (value: unknown) => unknown } })['~standard'].validate(value)
    return result instanceof Promise || !(result as { issues?: unknown }).issues
  }
  catch {
    return true
  }
}

/**
 * The marks left on the JSON, by pointer, removed from it. A library may share one object between
 * places, so every place is recorded before any mark is removed. A node marked unrepresentable
 * throws, naming its place and what to use instead.
 */
export function takeMarks(json: unknown, instead: Record<string, string> = {}): SchemaNotes {
  const notes: SchemaNotes = {}
  const marked = new Set<JsonSchemaObject>()
  const visit = (node: unknown, pointer: JsonPointer): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => visit(child, childPointer(pointer, i)))
      return
    }
    if (!isSchemaObject(node))
      return
    const unrepresentable = node[UNREPRESENTABLE] as Unrepresentable | undefined
    if (unrepresentable)
      throw new UnrepresentableError(pointer, unrepresentable.kind, unrepresentable.detail, instead)
    if (MARK in node) {
      notes[pointer] = node[MARK] as SchemaNote
      marked.add(node)
    }
    for (const [key, child] of Object.entries(node))
      visit(child, childPointer(pointer, key))
  }
  visit(json, '')
  for (const node of marked)
    delete node[MARK]
  return notes
}
