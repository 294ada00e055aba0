// The AST's AI prompts as MCP prompts, through a real SDK client: listed with the app and each
// context, and got in the locale asked for, with the app's global prompts and the context's own.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { connectInMemory } from '../support/mcpClient.ts';

const refuse: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };
let backend: Backend;
let client: Client;

before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:' });
  ({ client } = await connectInMemory({ client: embeddedClient(backend), board: new BoardState(), confirmer: refuse }, 'prompts'));
});
after(async () => { await backend?.close(); });

const textOf = (result: { messages: Array<{ content: { type: string; text?: string } }> }) => result.messages.map((m) => m.content.text ?? '').join('\n');

test('prompts/list offers the app and every context', async () => {
  const { prompts } = await client.listPrompts();
  const ast = demoApp();
  assert.deepEqual(prompts.map((p) => p.name), ['xos', ...Object.keys(ast.contexts).map((name) => `xos_${name}`)]);
  assert.deepEqual(prompts[0].arguments?.map((a) => [a.name, a.required ?? false]), [['locale', false]]);
});

test('prompts/get answers in the locale asked for, with the global and the context\'s prompts', async () => {
  const ast = demoApp();
  const [globalPrompt] = ast.prompts!;
  const german = textOf(await client.getPrompt({ name: 'xos', arguments: { locale: 'de' } }));
  assert.match(german, /^You work with the XOS app "XOS CRM"\. Call xos_schema first/);
  assert.ok(german.includes(typeof globalPrompt === 'string' ? globalPrompt : globalPrompt.de), german);
  const contextName = Object.entries(ast.contexts).find(([, c]) => (c.prompts ?? []).length > 0)![0];
  const contextPrompt = ast.contexts[contextName].prompts![0];
  const english = textOf(await client.getPrompt({ name: `xos_${contextName}`, arguments: { locale: 'en' } }));
  assert.match(english, new RegExp(`call xos_schema first if you have not, then xos_query with context "${contextName}"`));
  assert.ok(english.includes(typeof contextPrompt === 'string' ? contextPrompt : contextPrompt.en ?? contextPrompt.de), english);
  // No locale: the app's first.
  const plain = textOf(await client.getPrompt({ name: `xos_${contextName}` }));
  assert.ok(plain.includes(typeof contextPrompt === 'string' ? contextPrompt : contextPrompt[ast.locales[0]]), plain);
});
