// The architecture rule "only src/host/ imports vscode" is enforced by the lint config.
// The fixtures end in .txt so `eslint .` and tsc never see them as sources; they are
// linted here under made-up paths inside and outside src/host/.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const repoRoot = new URL('../../', import.meta.url);
const eslint = new ESLint({ cwd: fileURLToPath(repoRoot) });

function fixture(name: string): string {
  return readFileSync(new URL(`test/fixtures/lint/${name}`, repoRoot), 'utf8');
}

async function lint(code: string, filePath: string): Promise<Array<[string | null, number, number, string]>> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((message) => [message.ruleId, message.severity, message.line, message.message]);
}

const importMessage = '\'vscode\' import is restricted from being used. Only src/host/ imports "vscode"; pass what you need in as a dependency.';
const requireMessage = 'Only src/host/ imports "vscode".';

test('an import of vscode outside src/host/ is a lint error', async () => {
  const code = fixture('imports-vscode.ts.txt');
  assert.deepEqual(await lint(code, 'src/ast/x.ts'), [['no-restricted-imports', 2, 1, importMessage]]);
  assert.deepEqual(await lint(code, 'webview/x.ts'), [['no-restricted-imports', 2, 1, importMessage]]);
  assert.deepEqual(await lint(code, 'src/extension.ts'), [['no-restricted-imports', 2, 1, importMessage]]);
});

test('a type-only import of vscode outside src/host/ is a lint error too', async () => {
  const code = "import type { Uri } from 'vscode';\n\nexport type Location = Uri;\n";
  assert.deepEqual(await lint(code, 'src/mcp/x.ts'), [['no-restricted-imports', 2, 1, importMessage]]);
});

test('require() and import() of vscode outside src/host/ are lint errors', async () => {
  assert.deepEqual(await lint(fixture('requires-vscode.ts.txt'), 'src/backend/x.ts'), [
    ['no-restricted-syntax', 2, 3, requireMessage],
    ['no-restricted-syntax', 2, 4, requireMessage],
  ]);
});

test('inside src/host/ importing vscode is allowed', async () => {
  assert.deepEqual(await lint(fixture('imports-vscode.ts.txt'), 'src/host/x.ts'), []);
  assert.deepEqual(await lint(fixture('imports-vscode.ts.txt'), 'src/host/board/panel.ts'), []);
  assert.deepEqual(await lint(fixture('requires-vscode.ts.txt'), 'src/host/x.ts'), []);
});

// Text shown to the person goes through one door (src/host/notify.ts): VS Code renders
// `[label](command:…)` in a notification as a link that runs a command.
const notifyMessage = (property: string) => `'${property}' is restricted from being used. Show notifications and message dialogs through notify() (src/host/notify.ts): it sanitises the text shown to the person.`;

test('vscode.window.show*Message outside src/host/notify.ts is a lint error, however it is reached', async () => {
  const code = fixture('shows-message.ts.txt');
  const expected = [
    ['no-restricted-properties', 2, 5, notifyMessage('showInformationMessage')],
    ['no-restricted-properties', 2, 6, notifyMessage('showWarningMessage')],
    ['no-restricted-properties', 2, 7, notifyMessage('showErrorMessage')],
  ];
  assert.deepEqual(await lint(code, 'src/host/x.ts'), expected);
  assert.deepEqual(await lint(code, 'src/host/board/panel.ts'), expected);
  assert.deepEqual(await lint("import * as vscode from 'vscode';\n\nvoid vscode.window['showErrorMessage']('x');\n", 'src/host/x.ts'),
    [['no-restricted-properties', 2, 3, notifyMessage('showErrorMessage')]]);
});

test('the door itself may call them', async () => {
  assert.deepEqual(await lint(fixture('shows-message.ts.txt'), 'src/host/notify.ts'), []);
});
