// What a caller sent (a tool name, a URI, a request id, a method) as the operator's outputs hold it:
// the audit log, the debug log, spans and metrics keep its first CALLER_TEXT_CHARS characters, so a
// 1 MB name costs each of them no more than a short one.

/** The most characters of one piece of a caller's text any output of the operator's holds. */
export const CALLER_TEXT_CHARS = 256

/** `text` as an output holds it: cut to `CALLER_TEXT_CHARS` characters (a pair of surrogates kept whole), `…` marking the cut. */
export function callerText(text: unknown): string {
  const whole = typeof text === 'string' ? text : String(text)
  if (whole.length <= CALLER_TEXT_CHARS)
    return whole
  const end = /[\uD800-\uDBFF]/.test(whole[CALLER_TEXT_CHARS - 1]!) ? CALLER_TEXT_CHARS - 1 : CALLER_TEXT_CHARS
  // A copy, not a slice: V8's slice of a long string keeps the whole of it alive for as long as the
  // cut is held (a span's attribute, a map's key), so 1 MB names would cost 1 MB each again.
  return `${whole.slice(0, end).split('').join('')}…`
}
