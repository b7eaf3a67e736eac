"""Serves corpus_tools over stdio with the real official SDK (`mcp`) or the real `fastmcp`."""
import sys

import corpus_tools


def main() -> None:
    kind = sys.argv[1] if len(sys.argv) > 1 else "mcp"
    if kind == "fastmcp":
        from fastmcp import FastMCP

        server = FastMCP("corpus")
        for tool in corpus_tools.TOOLS:
            server.tool(tool)
        server.run(transport="stdio", show_banner=False)
    else:
        from mcp.server import MCPServer

        server = MCPServer("corpus")
        for tool in corpus_tools.TOOLS:
            server.tool()(tool)
        server.run(transport="stdio")


if __name__ == "__main__":
    main()
