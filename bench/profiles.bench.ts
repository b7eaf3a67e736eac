// Target profiles: compile cost of each relative to `portable`, the request-time cost of its inverse
// map + coercion + zod parse relative to zod parse alone on clean model-shaped arguments (judged in
// section 8b, beside the least a server does to read them), and its tools/list answer relative to
// writing a pre-serialized one.
import type { ProfileName } from '@flatmcp/core'
import { compileTool, PROFILE_NAMES } from '@flatmcp/core'
import { attachCompiled, toPrecomputed } from '@flatmcp/runtime'
import { inverseArgs } from '@flatmcp/runtime/coerce'
import { framePreserialized } from '@flatmcp/runtime/sdk'
import { createToolService } from '../packages/runtime/src/service/tool-service'
import { toolAt } from './catalog'
import { interleaved, measure } from './measure'

/** What a build ships and the proxy serves: `minimal` is a base profile an author builds on, no client is sent it. */
export const PROFILES: ProfileName[] = PROFILE_NAMES.filter(name => name !== 'minimal')
const TOOLS = 100

export interface ProfileResult {
  profile: ProfileName
  /** Compiling the 100-tool catalogue, ms. */
  compile: number
  /** One call of the union tool: zod parse alone, and inverse map + coercion + zod parse, ms. */
  zod: number
  inverse: number
  /** tools/list for 100 tools, the handler and the line written, and the pre-serialized limit, ms. */
  list: number
  limit: number
}

/** A value of `send_0`'s album variant, as each profile's model writes it. */
const album = { kind: 'mediaGroup', media: [{ url: 'https://a.example/1.png' }, { url: 'https://a.example/2.png', caption: 'two' }] }
const written: Record<string, unknown> = {
  'portable': album,
  'anthropic-strict': album,
  // Every key present, null where the value has none (and in each element).
  'openai-strict': { kind: 'mediaGroup', text: null, question: null, options: null, anonymous: null, media: album.media.map(m => ({ caption: null, ...m })) },
  // A collided key as JSON text.
  'gemini': { kind: 'mediaGroup', media: JSON.stringify(album.media) },
}

export async function runProfiles(log: (line: string) => void): Promise<ProfileResult[]> {
  const tools = Array.from({ length: TOOLS }, (_, i) => toolAt(i))
  const results: ProfileResult[] = []
  const built = tools.map(tool => attachCompiled(toolAt(Number(tool.name.split('_')[1])), toPrecomputed(compileTool(tool), PROFILES.slice(1).map(profile => compileTool(tool, { profile })))))
  const service = createToolService(built, {}, message => new Error(message))
  const send = tools[0]!
  for (const profile of PROFILES) {
    log(`profile ${profile}`)
    const compile = await measure(() => tools.map(tool => compileTool(tool, { profile })), { budgetMs: 3000, min: 5 })
    const compiled = compileTool(send, { profile })
    const args = written[profile]!
    if (!send.input['~standard'].validate(inverseArgs(args, compiled)))
      throw new Error(`${profile}: the model-shaped arguments do not parse`)
    // A shallow copy per call, as a new request's arguments are (the decode memo is per arguments
    // object), its cost taken off both.
    const call = interleaved({
      zod: () => send.input.safeParse({ ...album }),
      inverse: () => send.input.safeParse(inverseArgs({ ...args as object }, compiled)),
      copy: () => ({ ...args as object }),
    })
    // As section 1a: the list handler awaited and the line the stdio transport writes, against an
    // async handler that returns a line made of a string serialized once.
    const selected = profile === 'portable' ? undefined : profile
    const text = JSON.stringify(await service.list(selected))
    const list = await measure(async () => framePreserialized({ jsonrpc: '2.0', id: 1, result: await service.list(selected) } as object), { batch: 2000 })
    const limit = await measure(async () => `{"jsonrpc":"2.0","id":1,"result":${await Promise.resolve(text)}}\n`, { batch: 2000 })
    results.push({ profile, compile, zod: call.zod - call.copy, inverse: call.inverse - call.copy, list, limit })
  }
  return results
}
