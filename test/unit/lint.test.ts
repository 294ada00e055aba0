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
