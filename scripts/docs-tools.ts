// npm run docs:tools: writes the tool table into README.md from the tool registry.
import { readFileSync, writeFileSync } from 'node:fs';
import { withToolTable } from '../src/mcp/toolDocs.ts';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withToolTable(before);
writeFileSync(path, after);
console.log(before === after ? 'README.md: the tool table is current' : 'README.md: tool table updated');
