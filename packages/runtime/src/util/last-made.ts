// A value made from another, made again only when that other is replaced: what a call asks of a
// list (a gateway's routes, a name map) costs a lookup, not a copy of the list, each time.

/** `make(source)`, kept while `source` is the same object. */
export function lastMade<S, V>(make: (source: S) => V): (source: S) => V {
  let made: { source: S, value: V } | undefined
  return (source) => {
    if (made === undefined || made.source !== source)
      made = { source, value: make(source) }
    return made.value
  }
}
