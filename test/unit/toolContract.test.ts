// The tool contract cannot drift unseen: every tool's tools/list entry (name, title, description,
// input schema, annotations) is kept in test/snapshots/tools/<name>.json, and the README's tool
// table is made from the registry. A change to either fails here until the snapshot or the
// README is updated on purpose:
//   XOS_UPDATE_SNAPSHOTS=1 node --test test/unit/toolContract.test.ts   (or npm run docs:tools for the README)
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { createXosMcpServer, SERVER_INFO } from '../../src/mcp/server.ts';
import { McpSession } from '../../src/mcp/session.ts';
import { withToolTable } from '../../src/mcp/toolDocs.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const snapshots = join(root, 'test', 'snapshots', 'tools');
const update = process.env.XOS_UPDATE_SNAPSHOTS === '1';

async function listedTools(): Promise<Array<Record<string, unknown> & { name: string }>> {
  const server = createXosMcpServer(() => ({}) as XosDeps, new McpSession('contract', XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'contract', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  // As it goes over the wire: JSON, without undefined members.
  return JSON.parse(JSON.stringify(tools)) as Array<Record<string, unknown> & { name: string }>;
}

test('every tool\'s tools/list entry equals its snapshot in test/snapshots/tools', async () => {
  const tools = await listedTools();
  assert.deepEqual(tools.map((t) => t.name), XOS_TOOL_NAMES);
  if (update) {
    for (const file of readdirSync(snapshots)) rmSync(join(snapshots, file));
    for (const tool of tools) writeFileSync(join(snapshots, `${tool.name}.json`), `${JSON.stringify(tool, null, 2)}\n`);
  }
  assert.deepEqual(readdirSync(snapshots).sort(), tools.map((t) => `${t.name}.json`).sort(), 'one snapshot per tool, no stale ones');
  for (const tool of tools) {
    const file = join(snapshots, `${tool.name}.json`);
    assert.ok(existsSync(file), `${file} is missing; run XOS_UPDATE_SNAPSHOTS=1 node --test test/unit/toolContract.test.ts`);
    assert.deepEqual(tool, JSON.parse(readFileSync(file, 'utf8')), `${tool.name} changed; review it, then update with XOS_UPDATE_SNAPSHOTS=1`);
  }
});

test('the README\'s tool table is the one made from the registry', () => {
  const readme = join(root, 'README.md');
  const current = readFileSync(readme, 'utf8');
  if (update) writeFileSync(readme, withToolTable(current));
  assert.equal(readFileSync(readme, 'utf8'), withToolTable(current), 'run npm run docs:tools');
});

test('the server names itself with the package version; the tools that change something say so', async () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  assert.equal(SERVER_INFO.version, manifest.version);
  const tools = await listedTools();
  const writing = tools.filter((t) => (t.annotations as { readOnlyHint?: boolean }).readOnlyHint !== true).map((t) => t.name);
  assert.deepEqual(writing, ['xos_ui_save', 'xos_mail_send']);
  // Open world: what may reach beyond XOS's own data (contact providers, a mail server); the spec's default is true, so every tool says.
  const open = tools.filter((t) => (t.annotations as { openWorldHint?: boolean }).openWorldHint === true).map((t) => t.name);
  assert.deepEqual(open, ['xos_contacts', 'xos_mail_compose', 'xos_mail_send']);
  assert.ok(tools.every((t) => typeof (t.annotations as { openWorldHint?: boolean }).openWorldHint === 'boolean'));
});
