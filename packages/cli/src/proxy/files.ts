// The files the proxy and snapshot commands read: an overrides file and a snapshot, each checked, and
// anything off said as a set-up error naming the file (exit 2).
import type { Overrides } from '@flatmcp/runtime/proxy'
import { readFileSync } from 'node:fs'
import { ProxySetupError, readOverrides, readSnapshot } from '@flatmcp/runtime/proxy'
import { parseJson } from './parse-json'

/** An overrides file (`--overrides`), read and checked: anything off is a `ProxySetupError` naming the file and the JSON path. */
export function readOverridesFile(file: string): Overrides {
  try {
    return readOverrides(parseJson(readFileSync(file, 'utf8')))
  }
  catch (error) {
    throw new ProxySetupError(`${file}: ${(error as Error).message}`)
  }
}

/** A snapshot file, parsed and checked; anything off is a setup error naming the file. */
export function readSnapshotFile(file: string): unknown {
  let parsed: unknown
  try {
    parsed = parseJson(readFileSync(file, 'utf8'))
    readSnapshot(parsed)
  }
  catch (error) {
    throw new ProxySetupError(`${file}: ${(error as Error).message}`)
  }
  return parsed
}

