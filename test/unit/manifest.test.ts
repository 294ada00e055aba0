// The extension manifest: identity (DESIGN §7) and complete English and German texts.
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const repoRoot = new URL('../../', import.meta.url);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(new URL(path, repoRoot), 'utf8'));
}

const manifest = readJson('package.json') as Record<string, unknown>;

/** Every "%key%" placeholder anywhere in a JSON value. */
function placeholders(value: unknown): string[] {
  if (typeof value === 'string') {
    const match = /^%(.+)%$/.exec(value);
    return match ? [match[1]] : [];
  }
  if (Array.isArray(value)) return value.flatMap(placeholders);
  if (value && typeof value === 'object') return Object.values(value).flatMap(placeholders);
  return [];
}

function sourceFiles(dir: URL): URL[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return sourceFiles(new URL(`${entry.name}/`, dir));
    return entry.name.endsWith('.ts') ? [new URL(entry.name, dir)] : [];
  });
}

/** The message literals passed to l10n.t(...) in a source text (template literals without ${} included). */
function l10nMessages(source: string): string[] {
  const call = /\bl10n\.t\(\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\$])*)`)/g;
  return [...source.matchAll(call)].map((match) => unescape(match[1] ?? match[2] ?? match[3]));
}

function unescape(literal: string): string {
  return literal.replace(/\\(.)/g, (_, char: string) => ({ n: '\n', t: '\t' })[char] ?? char);
}

test('the manifest has the identity of DESIGN §7', () => {
  assert.equal(manifest.publisher, 'xos');
  assert.equal(manifest.name, 'xos-vscode');
  assert.equal(manifest.displayName, 'XOS');
  assert.equal(manifest.main, './dist/extension.cjs');
  assert.equal(manifest.l10n, './l10n');
});

test('every %key% in package.json has an English and a German text', () => {
  const keys = placeholders(manifest);
  assert.ok(keys.includes('xos.command.showOutput'), `placeholders found: ${keys.join(', ')}`);
  for (const file of ['package.nls.json', 'package.nls.de.json']) {
    const texts = readJson(file) as Record<string, unknown>;
    const missing = keys.filter((key) => typeof texts[key] !== 'string' || texts[key] === '');
    assert.deepEqual(missing, [], `${file} lacks texts for`);
  }
});

test('both nls files carry the same keys', () => {
  const english = Object.keys(readJson('package.nls.json') as object).sort();
  const german = Object.keys(readJson('package.nls.de.json') as object).sort();
  assert.deepEqual(german, english);
});

test('l10nMessages finds the message literals of l10n.t calls', () => {
  const source = "vscode.l10n.t('Save {0}?', name); l10n.t(\"It's {0}\", x); vscode.l10n.t(`Plain`); l10n.t('a \\'b\\'');";
  assert.deepEqual(l10nMessages(source), ['Save {0}?', "It's {0}", 'Plain', "a 'b'"]);
});

test('every l10n.t message in src/host has a German translation', () => {
  const german = readJson('l10n/bundle.l10n.de.json') as Record<string, unknown>;
  const messages = sourceFiles(new URL('src/host/', repoRoot))
    .flatMap((file) => l10nMessages(readFileSync(file, 'utf8')).map((message) => ({ file: file.pathname, message })));
  assert.ok(messages.some(({ message }) => message === 'XOS: click to show the output'), 'the status bar tooltip is localised');
  const untranslated = messages.filter(({ message }) => typeof german[message] !== 'string' || german[message] === '');
  assert.deepEqual(untranslated, []);
});

test('the activity bar view, its icon, the walkthrough\'s media and the commands they name exist', () => {
  const contributes = manifest.contributes as {
    commands: { command: string }[];
    viewsContainers: { activitybar: { id: string; icon: string }[] };
    views: Record<string, { id: string }[]>;
    walkthroughs: { steps: { media: { markdown?: string }; completionEvents?: string[] }[] }[];
  };
  const exists = (path: string) => {
    try {
      readFileSync(new URL(path, repoRoot));
      return true;
    } catch {
      return false;
    }
  };
  for (const container of contributes.viewsContainers.activitybar) {
    assert.ok(exists(container.icon), container.icon);
    assert.ok(contributes.views[container.id]?.length, `views of ${container.id}`);
  }
  const commands = new Set(contributes.commands.map((c) => c.command));
  const views = new Set(Object.values(contributes.views).flat().map((v) => v.id));
  for (const step of contributes.walkthroughs.flatMap((w) => w.steps)) {
    if (step.media.markdown) assert.ok(exists(step.media.markdown), step.media.markdown);
    for (const event of step.completionEvents ?? []) {
      const [kind, name] = event.split(':');
      if (kind === 'onCommand' && name.startsWith('xos.')) assert.ok(commands.has(name), event);
      if (kind === 'onView') assert.ok(views.has(name), event);
    }
  }
});
