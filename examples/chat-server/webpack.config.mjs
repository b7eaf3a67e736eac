// webpack.config.mjs: `webpack --config webpack.config.mjs`; an ES module for Node, packages left as imports.
import path from 'node:path'
import flatmcp from 'unplugin-flatmcp/webpack'

export default {
  mode: 'production',
  target: 'node20',
  entry: { 'server': './src/stdio.ts', 'flat-v2': './src/flat-v2.ts' },
  output: { path: path.resolve('dist/webpack'), filename: '[name].mjs', module: true, chunkFormat: 'module', clean: true },
  experiments: { outputModule: true },
  optimization: { minimize: false },
  resolve: { extensions: ['.ts', '.js'] },
  module: { rules: [{ test: /\.ts$/, loader: 'esbuild-loader', options: { target: 'node20' } }] },
  externalsType: 'module',
  externals: [({ request }, callback) => /^[^./]/.test(request) ? callback(null, `module ${request}`) : callback()],
  plugins: [flatmcp({ profiles: ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] })],
}
