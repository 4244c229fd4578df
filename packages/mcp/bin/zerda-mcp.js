#!/usr/bin/env node
// Committed launcher: package managers link a bin at install time, before `pnpm build` has
// produced dist/main.js; dist/cli.js (also committed) loads it or says to build first.
import('../dist/cli.js');
