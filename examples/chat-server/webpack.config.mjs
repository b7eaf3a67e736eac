// webpack.config.mjs: `webpack --config webpack.config.mjs`; an ES module for Node, packages left as imports.
import path from 'node:path'
import flatmcp from 'unplugin-flatmcp/webpack'

export default {
  mode: 'production',
  target: 'node20',
  entry: './src/stdio.ts',
  output: { path: path.resolve('dist/webpack'), filename: 'server.mjs', module: true, chunkFormat: 'module', clean: true },
  experiments: { outputModule: true },
  optimization: { minimize: false },
  resolve: { extensions: ['.ts', '.js'] },
  module: { rules: [{ test: /\.ts$/, loader: 'esbuild-loader', options: { target: 'node20' } }] },
  externalsType: 'module',
  externals: [({ request }, callback) => /^[^./]/.test(request) ? callback(null, `module ${request}`) : callback()],
  plugins: [flatmcp()],
}
