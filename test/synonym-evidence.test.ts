// The search's synonym table can be trusted: each group of words says why they name one job and what
// it was made from, and no word reaches a held-out task's tool on a held-out task's say. Every group
// word must be held by the group's own evidence: a tuning task it cites (the task's words or the name
// of the tool and server it needs, the pair that shows one standing for the other) or an outside
// source's words. A group cites tuning tasks alone, each by an id the task files hold.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SYNONYM_GROUPS } from '../packages/runtime/src/search/synonyms'
import { stem, wordsOf } from '../packages/runtime/src/search/words'
import { ROOT } from './support/client'

/** The task files, each task marked tuning or held out (`heldOut: boolean`, or `half: "tuning" | "held-out"`). */
const TASK_FILES = [
  'bench/data/livemcptool-tasks.json',
  'test/data/task-phrasings.json',
  'bench/data/scale-tasks.json',
]

interface Task { id: string, task: string, needs: string, heldOut: boolean }

/** Every task of the files above, by id, with its half. */
function readTasks(): Map<string, Task> {
  const tasks = new Map<string, Task>()
  for (const file of TASK_FILES) {
    const listed = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { tasks: { id: string, task: string, tool?: string, tools?: string[], server?: string, heldOut?: boolean, half?: string }[] }
    for (const { id, task, tool, tools, server, heldOut, half } of listed.tasks) {
      const held = heldOut ?? (half === undefined ? undefined : half === 'held-out')
      if (held === undefined || (half !== undefined && !['tuning', 'held-out'].includes(half)))
        throw new Error(`${file}: task ${id} says neither heldOut nor half`)
      if (tasks.has(id))
        throw new Error(`${file}: task id ${id} is given twice`)
      // A task names its tool (and server), or the tools any one of which does its job (`server:tool`).
      tasks.set(id, { id, task, needs: tools ? tools.join(' ') : `${server ?? ''} ${tool}`, heldOut: held })
    }
  }
  return tasks
}

const TASKS = readTasks()
const heldOutWords = [...TASKS.values()].filter(task => task.heldOut).map(task => ({ id: task.id, words: new Set(wordsOf(task.task)) }))

/** The words a group's evidence holds, as stems: its tuning tasks' words and the names of the tools and servers they need, its sources' words. */
function evidenced(group: typeof SYNONYM_GROUPS[number]): Set<string> {
  const cited = group.tasks.map(id => TASKS.get(id)).filter(task => task !== undefined && !task.heldOut)
    .flatMap(task => [...wordsOf(task!.task), ...wordsOf(task!.needs)])
  return new Set([...cited, ...group.sources.flatMap(source => source.words.map(stem))])
}

describe('the synonym table\'s evidence', () => {
  it('gives every group a reason and some evidence: a tuning task or an outside source', () => {
    const bare = SYNONYM_GROUPS.filter(group => group.reason.trim() === '' || (group.tasks.length === 0 && group.sources.length === 0))
    expect(bare.map(group => group.words.join(' '))).toEqual([])
  })

  it('cites tuning tasks alone, each by an id a task file holds', () => {
    const cited = SYNONYM_GROUPS.flatMap(group => group.tasks.map(id => ({ id, group: group.words[0] })))
    expect(cited.filter(({ id }) => !TASKS.has(id))).toEqual([])
    expect(cited.filter(({ id }) => TASKS.get(id)?.heldOut)).toEqual([])
  })

  it('lists only words of its group as a source\'s words', () => {
    const stray = SYNONYM_GROUPS.flatMap(group => group.sources.flatMap(source => source.words.filter(word => !group.words.includes(word)).map(word => `${source.name}: ${word}`)))
    expect(stray).toEqual([])
  })

  it('holds every word of every group by the group\'s own evidence', () => {
    const unheld = SYNONYM_GROUPS.flatMap((group) => {
      const held = evidenced(group)
      return group.words.filter(word => !held.has(stem(word))).map((word) => {
        const users = heldOutWords.filter(task => task.words.has(stem(word))).map(task => task.id)
        return `${group.words[0]} group: "${word}"${users.length > 0 ? ` (held-out ${users.join(' ')})` : ''}`
      })
    })
    expect(unheld).toEqual([])
  })
})
