// rspack.config.mjs: `node rspack.config.mjs`.
import path from 'node:path'
import { rspack } from '@rspack/core'
import flatmcp from 'unplugin-flatmcp/rspack'

const compiler = rspack({
  mode: 'production',
  target: 'node20',
  entry: { 'server': './src/stdio.ts', 'flat-v2': './src/flat-v2.ts' },
  output: { path: path.resolve('dist/rspack'), filename: '[name].mjs', module: true, chunkFormat: 'module', clean: true },
  experiments: { outputModule: true },
  optimization: { minimize: false },
  resolve: { extensions: ['.ts', '.js'] },
  module: { rules: [{ test: /\.ts$/, loader: 'builtin:swc-loader', options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } } }] },
  externalsType: 'module',
  externals: [({ request }, callback) => /^[^./]/.test(request) ? callback(null, `module ${request}`) : callback()],
  plugins: [flatmcp({ profiles: ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] })],
})
const stats = await new Promise((resolve, reject) => compiler.run((error, result) => error ? reject(error) : resolve(result)))
await new Promise(resolve => compiler.close(resolve))
if (stats.hasErrors()) {
  console.error(stats.toString({ all: false, errors: true }))
  process.exit(1)
}
