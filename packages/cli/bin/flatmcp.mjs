#!/usr/bin/env node
// The flatmcp command (its code is built into dist).
import '../dist/cli.mjs'
