#!/usr/bin/env node
// The `psa` command: a launcher that exists before the build, so npm can link it at install time.
await import('../dist/cli/main.js');
