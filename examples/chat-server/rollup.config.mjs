import path from 'node:path'
import esbuild from 'rollup-plugin-esbuild'
import flatmcp from 'unplugin-flatmcp/rollup'

// `rollup -c`: TypeScript through esbuild, packages left as imports.
export default {
  input: 'src/stdio.ts',
  output: { file: 'dist/rollup/server.mjs', format: 'es' },
  external: id => !id.startsWith('.') && !path.isAbsolute(id),
  plugins: [flatmcp(), esbuild({ target: 'node20' })],
}
