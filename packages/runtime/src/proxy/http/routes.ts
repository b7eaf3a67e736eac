// The paths a proxy serves each profile at, for the HTTP server and the fetch handler alike.

/**
 * The profile a path routes to: `/mcp/<profile>`, or `/<profile>/mcp` for clients that rewrite any
 * URL not ending in `/mcp` (the MCP Inspector's CLI); none for `/mcp` itself or another path.
 */
export function profileOfPath(path: string): string | undefined {
  const match = /^\/mcp\/([^/]+)\/?$/.exec(path) ?? /^\/([^/]+)\/mcp\/?$/.exec(path)
  return match?.[1] === 'mcp' ? undefined : match?.[1]
}
