// Formats in a strict profile: the vendor's strict mode holds a model to a `format` (the string it
// writes is one), so a format the original reads as an annotation would narrow what may be sent.
// Where the parser is a JSON Schema validator (the json-schema preset, whose formats are annotations
// unless it is told otherwise), the format goes into the description, as portable moves the formats
// it cannot keep; a parser known to check the format (zod's `uuid`, …) keeps it.
import type { TargetRule } from './rules'
import { childPointer } from '../json'
import { withSentence } from '../keywords'

export const annotatedFormats: TargetRule = {
  name: 'annotated-formats',
  node(node, path, ctx) {
    if (typeof node.format !== 'string' || !ctx.formatsAnnotate)
      return node
    const { format, ...out } = node
    ctx.report('format-moved', 'info', childPointer(path, 'format'), `format "${format}" moved into the description: the parser reads it as an annotation, and ${ctx.profile} would hold the model to it`)
    return { ...out, description: withSentence(out.description, `Format: ${format}.`) }
  },
}
