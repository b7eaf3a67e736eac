// Text from elsewhere (a server's stderr, an upstream's names and messages) as the operator's terminal
// shows it: each control character (C0 but tab, DEL, C1) written as a visible escape (`\r`, `\x1b`),
// so none can move the cursor, rewrite a line's `[name]` prefix, set the title or clear the screen.

/** Every control character but tab; and the same but line feed, for lines the proxy writes itself. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0A-\x1F\x7F-\x9F]/g
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/g
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r' }

const escaped = (char: string): string => NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`

/** `text` with its control characters escaped (a line feed too, unless `lines`: an operator line of the proxy's own may hold several). */
export function escapeControl(text: string, lines = false): string {
  return text.replace(lines ? CONTROL_BUT_LINES : CONTROL, escaped)
}
