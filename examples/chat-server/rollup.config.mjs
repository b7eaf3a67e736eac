// rollup.config.mjs: `rollup -c`; TypeScript through rollup-plugin-esbuild, packages left as imports.
import path from 'node:path'
import esbuild from 'rollup-plugin-esbuild'
import flatmcp from 'unplugin-flatmcp/rollup'

export default {
  input: 'src/stdio.ts',
  output: { file: 'dist/rollup/server.mjs', format: 'es' },
  external: id => !id.startsWith('.') && !path.isAbsolute(id),
  plugins: [flatmcp(), esbuild({ target: 'node20' })],
}
