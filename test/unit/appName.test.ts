// One name for the app everywhere (src/ast/appName.ts): the AST's label in the locale, else its
// `app` identifier. `xos-server init` writes `app: "chinook"` with `label: "Chinook"`; before,
// xos-server's start line, init's summary and xos_schema said "chinook" while xos-mcp said
// "Chinook". The Board's start page and breadcrumb, xos_schema, xos_system_status and the MCP
// prompt take the same name (the start lines are checked in test/integration/cli.test.ts and
// introspect.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { appName } from '../../src/ast/appName.ts';
import type { Ast } from '../../src/ast/schema.ts';
import { buildSchemaView } from '../../src/ast/view.ts';
import { BoardController } from '../../src/board/controller.ts';
import { MessageEndpoint, type WireMessage } from '../../src/board/protocol.ts';
import { BoardState } from '../../src/board/state.ts';
import { translator } from '../../src/board/texts.ts';
import { astPrompts } from '../../src/mcp/prompts.ts';
import type { XosClient } from '../../src/graphql/types.ts';

const chinook = JSON.parse(readFileSync(new URL('../fixtures/samples/chinook/chinook.xos.json', import.meta.url), 'utf8')) as Ast;

describe('the app\'s name', () => {
  test('is the label in the locale, else the app identifier', () => {
    assert.equal(chinook.app, 'chinook');
    assert.equal(appName(chinook), 'Chinook');
    const library = { app: 'library', label: { en: 'City Library', fr: 'Bibliothèque municipale' }, locales: ['en', 'fr'] };
    assert.equal(appName(library, 'fr-CA'), 'Bibliothèque municipale');
    assert.equal(appName(library, 'de'), 'City Library', 'a locale without a label: the first locale\'s');
    assert.equal(appName({ app: 'crm', locales: ['en'] }), 'crm');
    assert.equal(appName({ app: 'crm', label: '  ', locales: ['en'] }), 'crm', 'a blank label names nothing');
  });

  test('xos_schema and the MCP prompt say it', () => {
    const view = buildSchemaView(chinook, 'en');
    assert.equal(view.app, 'chinook', 'the identifier stays');
    assert.equal(view.label, 'Chinook');
    const [prompt] = astPrompts(chinook);
    assert.equal(prompt.title, 'XOS: Chinook');
    assert.match(prompt.text('en'), /^You work with the XOS app "Chinook"\./);
  });

  test('the Board gets it with its texts, for the start page\'s heading and the breadcrumb\'s root, and its tab says it', () => {
    const titles: string[] = [];
    const posted: Array<{ method: string; params: any }> = [];
    const endpoint = new MessageEndpoint((message: WireMessage) => {
      if ('method' in message) posted.push({ method: message.method, params: message.params });
    });
    const client = { ast: () => chinook } as unknown as XosClient;
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const controller: BoardController = new BoardController({
      state: new BoardState(), client, locale: () => 'en',
      deps: () => ({ client, board: controller.board, confirmer: undefined as never, locale: 'en' }),
      surface: { show: () => {}, isOpen: () => true, isVisible: () => true, setTitle: (title) => void titles.push(title) },
      ui: { t: translator('en'), log: quiet, tell: async () => undefined, askDiscard: async () => false, setLocale: () => {}, csvExport: async () => undefined },
    });
    controller.connect(endpoint);
    endpoint.receive({ method: 'board/ready', params: {} });
    assert.equal(posted.find((m) => m.method === 'board/locale')?.params.app, 'Chinook');
    assert.equal(titles.at(-1), 'XOS Board · Chinook');
    controller.dispose();
  });
});
