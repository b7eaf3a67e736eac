"""Serves corpus_tools with the real official SDK (`mcp`) or the real `fastmcp`, with one resource and
one prompt beside the tools (for what a proxy passes through unchanged): over stdio, or over
Streamable HTTP on 127.0.0.1 with `--http PORT` (path /mcp)."""
import sys

import corpus_tools


def readme() -> str:
    """What the corpus is."""
    return "Tool inputs in the shapes public Python servers use."


def review(code: str, language: str = "python") -> str:
    """Asks for a review of some code."""
    return f"Review this {language} code:\n{code}"


def main() -> None:
    kind = sys.argv[1] if len(sys.argv) > 1 else "mcp"
    port = int(sys.argv[sys.argv.index("--http") + 1]) if "--http" in sys.argv else None
    if kind == "fastmcp":
        from fastmcp import FastMCP

        server = FastMCP("corpus")
        for tool in corpus_tools.TOOLS:
            server.tool(tool)
        server.resource("corpus://readme")(readme)
        server.prompt(review)
        if "extras" in sys.argv[2:]:
            from fastmcp.server.dependencies import get_http_headers

            def whoami() -> str:
                """Says which Authorization header the call came with."""
                return get_http_headers(include_all=True).get("authorization", "none")

            server.tool(whoami)
        if port is None:
            server.run(transport="stdio", show_banner=False)
        else:
            server.run(transport="http", host="127.0.0.1", port=port, path="/mcp", show_banner=False)
    else:
        from mcp.server import MCPServer
        from mcp.server.mcpserver import Context

        server = MCPServer("corpus")
        for tool in corpus_tools.TOOLS:
            server.tool()(tool)
        server.resource("corpus://readme")(readme)
        server.prompt()(review)
        if "extras" in sys.argv[2:]:
            # What a proxy passes through: progress, and a list that changes while it runs.
            async def count(n: int, ctx: Context) -> str:
                """Counts to n, reporting progress."""
                for i in range(n):
                    await ctx.report_progress(i + 1, n)
                return f"counted {n}"

            def echo_word(word: str, times: int | None = None) -> str:
                """Says a word back."""
                return word * (times or 1)

            async def grow(ctx: Context) -> str:
                """Adds a tool and says the list changed."""
                server.add_tool(echo_word)
                await ctx.request_context.session.send_tool_list_changed()
                return "grown"

            async def wait(seconds: float) -> str:
                """Answers after a while (a slow upstream)."""
                import anyio

                await anyio.sleep(seconds)
                return f"waited {seconds}"

            def crash() -> str:
                """Ends the server process at once (an upstream that dies)."""
                import os

                os._exit(3)

            server.tool()(count)
            server.tool()(grow)
            server.tool()(wait)
            server.tool()(crash)
        if port is None:
            server.run(transport="stdio")
        else:
            server.run(transport="streamable-http", host="127.0.0.1", port=port, streamable_http_path="/mcp")


if __name__ == "__main__":
    main()
