#!/usr/bin/env node
// xos-mcp's command: the bundled CLI, once bin/run-bundle.mjs found Node and the build fit.
import { runBundle } from './run-bundle.mjs';

await runBundle('xos-mcp');
