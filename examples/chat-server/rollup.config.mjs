// rollup.config.mjs: `rollup -c`; TypeScript through rollup-plugin-esbuild, packages left as imports.
import path from 'node:path'
import esbuild from 'rollup-plugin-esbuild'
import flatmcp from 'unplugin-flatmcp/rollup'

export default {
  // The tools on the MCP SDK 1.x, and an SDK 2.x McpServer with a flat() schema.
  input: { 'server': 'src/stdio.ts', 'flat-v2': 'src/flat-v2.ts' },
  output: { dir: 'dist/rollup', entryFileNames: '[name].mjs', format: 'es' },
  external: id => !id.startsWith('.') && !path.isAbsolute(id),
  plugins: [flatmcp({ profiles: ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] }), esbuild({ target: 'node20' })],
}
