#!/usr/bin/env node
// xos-server's command: the bundled CLI, once bin/run-bundle.mjs found Node and the build fit.
import { runBundle } from './run-bundle.mjs';

await runBundle('xos-server');
