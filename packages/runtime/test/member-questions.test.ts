// Behind a gateway, a 2026-07-28 call asks in its rounds only the questions of the server it went to:
// a server's question goes to its own call, even where another server's call is newer, and one from
// a server with no call in rounds is refused at once, the server told why.
import { describe, expect, it } from 'vitest'
import { InputRequired } from '../src/elicit/replay'
import { questionBridge } from '../src/proxy/serve/questions'

const form = (message: string): { method: string, params: Record<string, unknown> } => ({ method: 'elicitation/create', params: { message, requestedSchema: { type: 'object', properties: {} } } })

describe('a gateway\'s questions in 2026-07-28 rounds', () => {
  it('go to a call of the server that asks, never to another server\'s newer call; a server without one is refused', async () => {
    const bridge = questionBridge(60_000)
    const answers: Record<string, (value: unknown) => void> = {}
    const round = (server: string): Promise<unknown> => bridge.call({ state: undefined, responses: undefined }, (routedTo) => {
      routedTo(server)
      return new Promise((resolve) => {
        answers[server] = resolve
      })
    }).catch((error: unknown) => error)
    // calm's call is the newer: a question not told apart by its server would end calm's round.
    const chat = round('chat')
    const calm = round('calm')
    await Promise.resolve()
    await expect(bridge.ask(form('nosy: your password'), undefined, 'nosy')).rejects.toThrow('the server "nosy" asked for elicitation/create outside any call to it')
    const asked = bridge.ask(form('chat: who are you?'), undefined, 'chat')
    const ended = await chat
    expect(ended).toBeInstanceOf(InputRequired)
    expect(Object.values((ended as InputRequired).inputRequests)).toEqual([form('chat: who are you?')])
    // The calm call heard nothing: it ends with its own result.
    answers.calm!({ content: [] })
    expect(await calm).toEqual({ content: [] })
    const back = bridge.call({ state: (ended as InputRequired).state, responses: { q0: { action: 'accept', content: {} } } }, () => Promise.reject(new Error('not sent again')))
    expect(await asked).toEqual({ action: 'accept', content: {} })
    answers.chat!({ content: [{ type: 'text', text: 'done' }] })
    expect(await back).toEqual({ content: [{ type: 'text', text: 'done' }] })
  })
})
