// How long a test or a hook may run before it counts as hung: a bound on hangs, not on speed. A test's
// verdict must not depend on the machine's load, and a busy machine (a load of 4 or 10 on 2 cores) takes
// several times as long as an idle one; speed is measured by `npm run bench`, never by a timeout.
export const SLOW = 900_000
