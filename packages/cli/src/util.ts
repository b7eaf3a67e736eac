// Small facts about values the command checks, written once.

/** A JSON object: not null, not an array. */
// Parsed JSON, read field by field where it is used.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value)
