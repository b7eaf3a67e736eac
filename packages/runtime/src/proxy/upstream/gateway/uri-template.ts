// Whether a URI is one a resource template (RFC 6570, levels 1 to 4) makes, to send a read to the
// server whose template it is. Each expression matches what its operator can expand to (a simple
// `{var}` no `/`, `?` or `#`; `{+var}` anything; `{/var}` `/` and segments; `{?q,n}` `?` and a query;
// …), loosely: two expressions side by side match what either could. The match runs the template as
// a set of states over the URI, never backtracking: time in the URI's length times the template's,
// both bounded, whatever a server lists.

/** The longest template matched: a longer one is listed, never routed by. */
export const MAX_TEMPLATE_CHARS = 256
/** The longest URI matched against templates: a longer one is read only where a server lists it. */
export const MAX_MATCHED_URI_CHARS = 2048

/** One step of a template: a literal character, a run of characters an expression expands to, or the optional character that leads one. */
type Step =
  | { kind: 'literal', char: string }
  | { kind: 'run', takes: (char: string) => boolean }
  | { kind: 'lead', char: string }

const anything = (): boolean => true
const noneOf = (chars: string) => (char: string): boolean => !chars.includes(char)

/** What each operator expands to: the character it leads with (none for `{var}` and `{+var}`), and what may follow. */
const OPERATORS: Readonly<Record<string, { lead?: string, takes: (char: string) => boolean }>> = {
  '': { takes: noneOf('/?#') },
  '+': { takes: anything },
  '#': { lead: '#', takes: anything },
  '.': { lead: '.', takes: noneOf('/?#') },
  '/': { lead: '/', takes: noneOf('?#') },
  ';': { lead: ';', takes: noneOf('/?#') },
  '?': { lead: '?', takes: noneOf('#') },
  '&': { lead: '&', takes: noneOf('#') },
}

const VARIABLE = /^(?:[\w.]|%[0-9a-f]{2})+(?::[1-9]\d{0,3}|\*)?$/i

/** The steps of an expression's body (`+path`, `?q,limit`); undefined where it is not RFC 6570's. */
function expression(body: string): Step[] | undefined {
  const first = body.slice(0, 1)
  const operator = first !== '' && Object.hasOwn(OPERATORS, first) ? first : ''
  const { lead, takes } = OPERATORS[operator]!
  if (!body.slice(operator.length).split(',').every(name => VARIABLE.test(name)))
    return undefined
  return lead === undefined ? [{ kind: 'run', takes }] : [{ kind: 'lead', char: lead }, { kind: 'run', takes }]
}

/** A template's steps; undefined where it is not a template (an unclosed brace, an expression that is not one). */
function stepsOf(template: string): Step[] | undefined {
  const steps: Step[] = []
  for (let i = 0; i < template.length;) {
    if (template[i] === '}')
      return undefined
    if (template[i] !== '{') {
      steps.push({ kind: 'literal', char: template[i++]! })
      continue
    }
    const end = template.indexOf('}', i)
    const made = end < 0 ? undefined : expression(template.slice(i + 1, end))
    if (!made)
      return undefined
    steps.push(...made)
    i = end + 1
  }
  return steps
}

/** The states reached from `states` without reading a character: past a run (it may be empty), past an expression whose lead is absent. */
function closed(steps: readonly Step[], states: Uint8Array): Uint8Array {
  for (let i = 0; i < steps.length; i++) {
    if (!states[i])
      continue
    const step = steps[i]!
    if (step.kind === 'run')
      states[i + 1] = 1
    else if (step.kind === 'lead')
      states[i + 2] = 1
  }
  return states
}

/**
 * Whether `uri` is one `template` makes; undefined where the template cannot be matched (over
 * `MAX_TEMPLATE_CHARS`, or not a template), false for a URI over `MAX_MATCHED_URI_CHARS`.
 */
export function templateMatcher(template: string): ((uri: string) => boolean) | undefined {
  const steps = template.length > MAX_TEMPLATE_CHARS ? undefined : stepsOf(template)
  if (!steps)
    return undefined
  return (uri) => {
    if (uri.length > MAX_MATCHED_URI_CHARS)
      return false
    let states = closed(steps, Uint8Array.from({ length: steps.length + 1 }, (_, i) => (i === 0 ? 1 : 0)))
    for (let at = 0; at < uri.length; at++) {
      const char = uri[at]!
      const next = new Uint8Array(steps.length + 1)
      let any = false
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!
        if (!states[i])
          continue
        if (step.kind === 'run' ? step.takes(char) : step.char === char) {
          next[step.kind === 'run' ? i : i + 1] = 1
          any = true
        }
      }
      if (!any)
        return false
      states = closed(steps, next)
    }
    return states[steps.length] === 1
  }
}
