// The floors of docs/architecture.md, enforced: every import of src/ and webview/ points down
// (scripts/lib/layers.mjs). The lint rule xos/layers is checked on fixtures (they end in .txt
// so `eslint .` and tsc never see them as sources; they are linted here under made-up paths),
// and the real import graph is checked against the same table, so an arrow back up fails
// here even if the lint config lost the rule.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { FLOORS, PACKAGES, WEBVIEW_IMPORTS, importProblem, packageName, packageProblem, partOf, repoPath } from '../../scripts/lib/layers.mjs';
import { importCircles, importGraph, importSpecifiers, sourceFiles } from '../../scripts/lib/circles.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });

function fixture(name: string): string {
  return readFileSync(join(repoRoot, 'test/fixtures/lint', name), 'utf8');
}

/** [line, message] of each xos/layers problem (other rules are lint.test.ts's). */
async function layerProblems(code: string, filePath: string): Promise<Array<[number, string]>> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((message) => message.ruleId === 'xos/layers').map((message) => [message.line, message.message]);
}

const up = (source: string, target: string, targetPart: string, where: string) =>
  `${source} may not import ${target}: ${targetPart} is ${where}. Imports point down (docs/architecture.md): move what is shared down, or pass it in through an interface.`;

test('an import up the floors is a lint error; one down or within the part is not', async () => {
  const code = fixture('imports-upward.ts.txt');
  assert.deepEqual(await layerProblems(code, 'src/core/x.ts'), [
    [1, up('src/core', 'src/board/state.ts', 'src/board', 'above it (floor 5 > 4)')],
    [3, up('src/core', 'src/mcp/tools/fields.ts', 'src/mcp', 'above it (floor 5 > 4)')],
    [9, up('src/core', 'src/host/xosHost.ts', 'src/host', 'above it (floor 8 > 4)')],
  ]);
  assert.deepEqual(await layerProblems(code, 'src/graphql/x.ts'), [
    [1, up('src/graphql', 'src/board/state.ts', 'src/board', 'above it (floor 5 > 2)')],
    [2, up('src/graphql', 'src/core/useCases.ts', 'src/core', 'above it (floor 4 > 2)')],
    [3, up('src/graphql', 'src/mcp/tools/fields.ts', 'src/mcp', 'above it (floor 5 > 2)')],
    [9, up('src/graphql', 'src/host/xosHost.ts', 'src/host', 'above it (floor 8 > 2)')],
  ]);
  assert.deepEqual(await layerProblems(code, 'src/standalone/x.ts'), [
    [9, up('src/standalone', 'src/host/xosHost.ts', 'src/host', 'beside it on floor 8')],
  ]);
  assert.deepEqual(await layerProblems(code, 'src/extension.ts'), []);
});

test('the app wiring stands above the Board and the tools, below the front ends', async () => {
  const code = "import { XosApp } from '../app/xosApp.ts';\n\nexport const app = XosApp;\n";
  assert.deepEqual(await layerProblems(code, 'src/host/x.ts'), []);
  assert.deepEqual(await layerProblems(code, 'src/standalone/x.ts'), []);
  assert.deepEqual(await layerProblems(code, 'src/board/x.ts'), [
    [1, up('src/board', 'src/app/xosApp.ts', 'src/app', 'above it (floor 7 > 5)')],
  ]);
});

test('parts on one floor do not import each other (the Board and the tools)', async () => {
  assert.deepEqual(await layerProblems(fixture('imports-upward.ts.txt'), 'src/board/x.ts'), [
    [3, up('src/board', 'src/mcp/tools/fields.ts', 'src/mcp', 'beside it on floor 5')],
    [9, up('src/board', 'src/host/xosHost.ts', 'src/host', 'above it (floor 8 > 5)')],
  ]);
});

test('the webview imports only the browser-safe modules named for it', async () => {
  const problems = await layerProblems(fixture('webview-imports.ts.txt'), 'webview/x.ts');
  assert.deepEqual(problems.map(([line]) => line), [3, 4]);
  assert.match(problems[0][1], /^webview\/ runs in a browser and imports only src\/ast, .*; not src\/core\/useCases\.ts\.$/);
});

test('the front ends\' private storage stands on its own floor: above the Board, below the app', async () => {
  const code = "import { SqliteApprovalStore } from '../store/approvalStore.ts';\n\nexport const store = SqliteApprovalStore;\n";
  assert.deepEqual(await layerProblems(code, 'src/app/x.ts'), []);
  assert.deepEqual(await layerProblems(code, 'src/host/x.ts'), []);
  assert.deepEqual(await layerProblems(code, 'src/board/x.ts'), [
    [1, up('src/board', 'src/store/approvalStore.ts', 'src/store', 'above it (floor 6 > 5)')],
  ]);
  assert.deepEqual(await layerProblems(code, 'src/core/x.ts'), [
    [1, up('src/core', 'src/store/approvalStore.ts', 'src/store', 'above it (floor 6 > 4)')],
  ]);
});

test('a part imports only the packages it lists, and Node\'s built-ins outside the webview', async () => {
  const code = "import { z } from 'zod';\nimport pg from 'pg';\nimport { readFileSync } from 'node:fs';\nimport { html } from 'lit/static-html.js';\n\nexport const all = [z, pg, readFileSync, html];\n";
  const refused = (part: string, name: string, own: string) =>
    `${part} may not import the package ${name}: ${own} (PACKAGES in scripts/lib/layers.mjs; a Node built-in is imported as node:${name}). Add it there if ${part} should depend on it.`;
  assert.deepEqual(await layerProblems(code, 'src/ast/x.ts'), [
    [2, refused('src/ast', 'pg', 'its packages are yaml, zod')],
    [4, refused('src/ast', 'lit', 'its packages are yaml, zod')],
  ]);
  assert.deepEqual(await layerProblems(code, 'src/core/x.ts'), [
    [1, refused('src/core', 'zod', 'it imports no package')],
    [2, refused('src/core', 'pg', 'it imports no package')],
    [4, refused('src/core', 'lit', 'it imports no package')],
  ]);
  assert.deepEqual(await layerProblems(code, 'webview/x.ts'), [
    [1, refused('webview', 'zod', 'its packages are @lit/context, @modelcontextprotocol/ext-apps, @vscode-elements/elements, lit')],
    [2, refused('webview', 'pg', 'its packages are @lit/context, @modelcontextprotocol/ext-apps, @vscode-elements/elements, lit')],
    [3, 'webview/ runs in a browser: it may not import node:fs.'],
  ]);
  // A built-in without its node: prefix reads as a package: the message says how to import it.
  assert.match(packageProblem('src/core/x.ts', 'fs') ?? '', /a Node built-in is imported as node:fs/);
  assert.equal(packageName('@modelcontextprotocol/server/stdio'), '@modelcontextprotocol/server');
  assert.equal(packageName('nodemailer/lib/smtp-connection'), 'nodemailer');
});

test('every part of the floors lists its packages; each listed package is a dependency and is used', () => {
  const parts = [...FLOORS.flatMap((floor) => floor.parts), 'webview'];
  assert.deepEqual(Object.keys(PACKAGES).sort(), [...parts].sort(), 'PACKAGES names exactly the parts of FLOORS and the webview');
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
  const used = new Map<string, Set<string>>(parts.map((part) => [part, new Set<string>()]));
  for (const file of [...sources('src'), ...sources('webview')]) {
    for (const specifier of specifiers(file)) {
      // vscode is the editor's module, not a package (its own lint rule keeps it in src/host/).
      if (!specifier.startsWith('.') && !specifier.startsWith('node:') && specifier !== 'vscode') used.get(partOf(file)!)!.add(packageName(specifier));
    }
  }
  for (const part of parts) {
    const listed = PACKAGES[part];
    for (const name of listed) assert.ok(declared.has(name), `${part} lists ${name}, which package.json does not declare`);
    assert.deepEqual([...used.get(part)!].sort(), [...listed].sort(), `${part}: the packages it imports are the ones it lists (no more, and none listed but unused)`);
  }
});

test('a new folder under src/ needs a floor', async () => {
  assert.deepEqual(await layerProblems("import { findContext } from '../ast/lookup.ts';\n\nexport const f = findContext;\n", 'src/reports/x.ts'), [
    [1, 'src/reports has no floor: add it to FLOORS in scripts/lib/layers.mjs (and docs/architecture.md).'],
  ]);
});

// ---- the real import graph -------------------------------------------------------------------

const sources = sourceFiles;
const specifiers = importSpecifiers;

function resolved(from: string, specifier: string): string {
  return repoPath(resolve(dirname(join(repoRoot, from)), specifier));
}

test('every import of src/ and webview/ points down the floors, and every package is one its part lists', () => {
  const problems: string[] = [];
  for (const file of [...sources('src'), ...sources('webview')]) {
    for (const specifier of specifiers(file)) {
      const problem = specifier.startsWith('.') ? importProblem(file, resolved(file, specifier)) : packageProblem(file, specifier);
      if (problem) problems.push(`${file}: ${problem}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('nothing the webview reaches, types included, imports Node or vscode', () => {
  const builtins = new Set(builtinModules);
  const seen = new Set<string>();
  const queue = sources('webview');
  const problems: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiers(file)) {
      if (specifier.startsWith('.')) {
        const target = resolved(file, specifier);
        if (target.endsWith('.ts')) queue.push(target);
      } else if (specifier === 'vscode' || specifier.startsWith('node:') || builtins.has(specifier)) {
        problems.push(`${file} imports ${specifier}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('import circles: none in src/ and webview/ (the lint rule xos/no-import-circles says so in the editor)', () => {
  assert.deepEqual(importCircles(importGraph([...sources('src'), ...sources('webview')])), []);
});

test('a circle is found however long, and each is named by its sorted files', () => {
  const graph = new Map([
    ['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e2']], ['e2', ['e']], ['f', ['a']],
  ]);
  assert.deepEqual(importCircles(graph), [['a', 'b', 'c'], ['e', 'e2']]);
  assert.deepEqual(importCircles(new Map([['a', ['b']], ['b', []]])), []);
});

test('docs/architecture.md names every part of the floor table', () => {
  const doc = readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8');
  for (const part of FLOORS.flatMap((floor) => floor.parts)) assert.ok(doc.includes(`\`${part}\``), `docs/architecture.md does not name ${part}`);
  for (const entry of WEBVIEW_IMPORTS) assert.ok(doc.includes(`\`${entry}\``), `docs/architecture.md does not name ${entry}`);
});

test('every folder of src/ has a floor', () => {
  const parts = new Set(FLOORS.flatMap((floor) => floor.parts));
  const missing = readdirSync(join(repoRoot, 'src')).map((name) => `src/${name}`).filter((part) => !parts.has(part));
  assert.deepEqual(missing, []);
});

/** The functions that list or decide stored approvals: the person's front end only, never an agent's tool. */
const PERSON_ONLY = ['decideApproval', 'pendingApprovals', 'voidChanged', 'sweepApprovals'];
const PERSON_ONLY_MODULES = ['src/board/approvalDesk.ts', 'src/board/storedApprovalDesk.ts', 'src/board/approvalsPart.ts'];

/** Where `code` (the file `path` of src/mcp/) could reach a function that lists or decides approvals. */
function agentReachesDecisions(path: string, code: string): string[] {
  const problems: string[] = [];
  for (const specifier of ts.preProcessFile(code, true, true).importedFiles.map((file) => file.fileName)) {
    if (!specifier.startsWith('.')) continue;
    const target = resolved(path, specifier);
    if (PERSON_ONLY_MODULES.includes(target)) problems.push(`${path} imports ${target}`);
  }
  const source = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && PERSON_ONLY.includes(node.text)) problems.push(`${path} names ${node.text}`);
    // A namespace import of the approvals module would reach them without naming them in an import.
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.endsWith('/approvals.ts')
      && node.importClause?.namedBindings && ts.isNamespaceImport(node.importClause.namedBindings)) problems.push(`${path} imports all of approvals.ts`);
    if (ts.isExportDeclaration(node) && !node.exportClause && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
      && node.moduleSpecifier.text.endsWith('/approvals.ts')) problems.push(`${path} re-exports all of approvals.ts`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

test('no agent credential can list or decide approvals: nothing under src/mcp/ reaches the person\'s functions or desk', () => {
  const problems = sources('src/mcp').flatMap((file) => agentReachesDecisions(file, readFileSync(join(repoRoot, file), 'utf8')));
  assert.deepEqual(problems, []);
  // The rule catches what it is meant to.
  assert.deepEqual(agentReachesDecisions('src/mcp/tools/x.ts', "import { decideApproval } from '../../core/approvals.ts';\n"), [
    'src/mcp/tools/x.ts names decideApproval',
  ]);
  assert.deepEqual(agentReachesDecisions('src/mcp/x.ts', "import * as approvals from '../core/approvals.ts';\nimport { StoredApprovalDesk } from '../board/storedApprovalDesk.ts';\n"), [
    'src/mcp/x.ts imports src/board/storedApprovalDesk.ts',
    'src/mcp/x.ts imports all of approvals.ts',
  ]);
  assert.deepEqual(agentReachesDecisions('src/mcp/x.ts', "export * from '../core/approvals.ts';\nconst f = (d: Deps) => d.pendingApprovals;\n"), [
    'src/mcp/x.ts re-exports all of approvals.ts',
    'src/mcp/x.ts names pendingApprovals',
  ]);
});

// ---- the agent's words ---------------------------------------------------------------------

/** The modules that word things for the person: their texts show what the AST keeps from the agent. */
const PERSON_WORDING = ['src/text/personText.ts', 'src/board/questionText.ts', 'src/board/confirmText.ts', 'src/board/outcomeText.ts', 'src/board/personFacing.ts', 'src/board/texts.ts'];
/** XosDeps members that are functions returning text and are data, not words: the Board page's address. */
const DATA_TEXT_PORTS = ['boardUrl'];

/** Where the file `path` of src/mcp/ imports the person's wording. */
function agentImportsPersonWords(path: string, code: string): string[] {
  return ts.preProcessFile(code, true, true).importedFiles.map((file) => file.fileName)
    .filter((specifier) => specifier.startsWith('.') && PERSON_WORDING.includes(resolved(path, specifier)))
    .map((specifier) => `${path} imports ${resolved(path, specifier)}`);
}

/** The members of the interface `name` in `code` whose type is a function returning text (`string`, possibly with `undefined`). */
function wordPorts(code: string, name: string): string[] {
  const source = ts.createSourceFile('ports.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const returnsText = (type: ts.TypeNode | undefined): boolean => {
    if (!type) return false;
    if (ts.isParenthesizedTypeNode(type)) return returnsText(type.type);
    if (ts.isFunctionTypeNode(type)) {
      const result = type.type;
      const parts = ts.isUnionTypeNode(result) ? result.types : [result];
      return parts.some((part) => part.kind === ts.SyntaxKind.StringKeyword);
    }
    return ts.isUnionTypeNode(type) && type.types.some(returnsText);
  };
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== name) return;
    for (const member of node.members) {
      if (!member.name || !ts.isIdentifier(member.name)) continue;
      const type = ts.isPropertySignature(member) ? member.type : undefined;
      if (ts.isMethodSignature(member) ? member.type?.kind === ts.SyntaxKind.StringKeyword : returnsText(type)) found.push(member.name.text);
    }
  });
  return found;
}

test('the agent\'s words are made in src/mcp from data and leave through one door: no person wording is imported there or handed in through XosDeps', () => {
  const problems = sources('src/mcp').flatMap((file) => agentImportsPersonWords(file, readFileSync(join(repoRoot, file), 'utf8')));
  assert.deepEqual(problems, []);
  // A port that returns text would bring words made elsewhere (the person's question, say) to the agent.
  assert.deepEqual(wordPorts(readFileSync(join(repoRoot, 'src/mcp/ports.ts'), 'utf8'), 'XosDeps'), DATA_TEXT_PORTS);
  // A reply is made only by the door (src/mcp/result.ts, its type says so): nothing else casts one into being.
  const casts = sources('src/mcp').filter((file) => file !== 'src/mcp/result.ts')
    .filter((file) => /\bas (?:AgentResult|AgentReply|ToolReply|CallToolResult|InputRequiredResult)\b/.test(readFileSync(join(repoRoot, file), 'utf8')));
  assert.deepEqual(casts, []);
  // The rules catch what they are meant to.
  assert.deepEqual(agentImportsPersonWords('src/mcp/tools/x.ts', "import { personText } from '../../text/personText.ts';\nimport type { Ast } from '../../ast/schema.ts';\n"), [
    'src/mcp/tools/x.ts imports src/text/personText.ts',
  ]);
  assert.deepEqual(wordPorts([
    'export interface XosDeps {',
    '  readonly client: XosClient;',
    '  readonly approvalQuestion?: (approval: Pick<PendingApproval, "kind" | "summary">) => string;',
    '  readonly note?: ((id: string) => string | undefined);',
    '  words(): string;',
    '  readonly count?: () => number;',
    '}',
  ].join('\n'), 'XosDeps'), ['approvalQuestion', 'note', 'words']);
});
