// The shapes a client's MCP config comes in: the key its servers are under, how an operator is told
// of it, and whether `flatmcp proxy --config` reads a file of that shape as the client wrote it. The
// `--config` reader, install's table of clients (clients.ts), `install --list` and the tests derive
// from this table: a new shape is one row.

export interface ConfigShape {
  /** The key its servers are under. */
  key: string
  /** The shape as a message or the docs spell it. */
  spelled: string
  /** `--config` reads a file of this shape as it is (the others' entries are moved into one by install). */
  served: boolean
}

export const CONFIG_SHAPES = [
  { key: 'mcpServers', spelled: '{"mcpServers": {…}}', served: true },
  { key: 'servers', spelled: 'VS Code\'s {"servers": {…}}', served: true },
  { key: 'mcp_servers', spelled: 'Codex\'s [mcp_servers.NAME]', served: true },
  { key: 'context_servers', spelled: 'Zed\'s {"context_servers": {…}}', served: false },
  { key: 'extensions', spelled: 'Goose\'s extensions:', served: false },
  { key: 'mcp', spelled: 'opencode\'s and Crush\'s {"mcp": {…}}', served: false },
] as const satisfies readonly ConfigShape[]

/** The key of a shape the table knows. */
export type ShapeKey = typeof CONFIG_SHAPES[number]['key']

/** The key of a shape `--config` reads. */
export type ServedShapeKey = Extract<typeof CONFIG_SHAPES[number], { served: true }>['key']

/** The shapes `--config` reads, in the order a file holding more than one is read by. */
export const SERVED_SHAPES = CONFIG_SHAPES.filter((shape): shape is Extract<typeof shape, { served: true }> => shape.served)

/** The shape of flatmcp's own config, the file install moves a client's servers into. */
export const FLATMCP_SHAPE: ServedShapeKey = 'mcpServers'

/** The served shapes as one phrase: `A, B, or C`. */
export function servedShapesSpelled(): string {
  const spelled = SERVED_SHAPES.map(shape => shape.spelled)
  return spelled.length < 2 ? spelled.join('') : `${spelled.slice(0, -1).join(', ')}, or ${spelled.at(-1)}`
}
