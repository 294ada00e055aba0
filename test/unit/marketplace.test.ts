// The manifest as the Visual Studio Marketplace and Open VSX take it (scripts/lib/marketplace.mjs):
// today's package.json passes, and each rule refuses what the stores would refuse.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { markdownImages, marketplaceProblems, VSIX_BUDGET_BYTES } from '../../scripts/lib/marketplace.mjs';
import { encodePng } from '../../scripts/lib/png.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8')) as Record<string, unknown>;
const shipped = ['package.json', 'readme.md', 'changelog.md', 'LICENSE.txt', 'media/xos.png', 'dist/extension.cjs'];

/** The problems of the manifest with `changes` applied (undefined removes a field). */
function problemsWith(changes: Record<string, unknown>, files?: string[], bytes?: number): string[] {
  const changed: Record<string, unknown> = { ...manifest, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete changed[key];
  return marketplaceProblems(changed, { root, ...(files ? { files } : {}), ...(bytes !== undefined ? { bytes } : {}) });
}

function assertRefused(problems: string[], pattern: RegExp): void {
  assert.ok(problems.some((problem) => pattern.test(problem)), `expected a problem like ${pattern}, got: ${JSON.stringify(problems)}`);
}

test('package.json and a complete .vsix file list have nothing the stores refuse', { timeout: 30_000 }, () => {
  assert.deepEqual(problemsWith({}, shipped, 1024 * 1024), []);
});

test("vsce's own rules apply: a publisher's display name, an SVG icon, a loose engine, newer typings", { timeout: 30_000 }, () => {
  assertRefused(problemsWith({ publisher: 'XOS Team' }), /vsce: Invalid extension "publisher"/);
  assertRefused(problemsWith({ icon: 'media/xos.svg' }), /vsce: SVGs can't be used as icons/);
  assertRefused(problemsWith({ engines: { vscode: 'latest' } }), /vsce: Invalid vscode engine compatibility/);
  assertRefused(problemsWith({ engines: { vscode: '^1.90.0' } }), /vsce: @types\/vscode 1\.105\.0 greater than engines\.vscode/);
});

test('keywords, categories, banner and links follow the Marketplace', { timeout: 30_000 }, () => {
  assertRefused(problemsWith({ keywords: ['a', 'b', 'c', 'd', 'e', 'f'] }), /6 keywords; the Marketplace takes at most 5/);
  assertRefused(problemsWith({ categories: ['Business'] }), /category "Business" is not one of/);
  assertRefused(problemsWith({ categories: undefined }), /categories are missing/);
  assertRefused(problemsWith({ galleryBanner: undefined }), /galleryBanner is missing/);
  assertRefused(problemsWith({ galleryBanner: { color: 'blue', theme: 'dim' } }), /galleryBanner\.color "blue"/);
  assertRefused(problemsWith({ galleryBanner: { color: '#000000', theme: 'dim' } }), /galleryBanner\.theme "dim"/);
  assertRefused(problemsWith({ repository: 'git@github.com:xos/xos-vscode.git' }), /repository .* must be an https URL/);
  assertRefused(problemsWith({ homepage: undefined }), /homepage "undefined" must be an https URL/);
  assertRefused(problemsWith({ bugs: { url: 'http://example.com/bugs' } }), /bugs .* must be an https URL/);
  assertRefused(problemsWith({ publisher: 'xos/team' }), /no Open VSX namespace|vsce: Invalid extension "publisher"/);
  assertRefused(problemsWith({ license: undefined }), /license is missing/);
  assertRefused(problemsWith({ files: ['dist'] }), /"files" in package\.json/);
});

test('the icon is a PNG of at least 128 px', { timeout: 30_000 }, () => {
  assertRefused(problemsWith({ icon: 'media/missing.png' }), /icon media\/missing\.png does not exist/);
  // A JSON file named like a PNG is no PNG.
  assertRefused(problemsWith({ icon: 'package.json' }), /icon package\.json must be a PNG/);
  const dir = mkdtempSync(join(tmpdir(), 'xos-icon-'));
  try {
    writeFileSync(join(dir, 'small.png'), encodePng(64, 64, new Uint8Array(64 * 64 * 4)));
    assertRefused(problemsWith({ icon: relative(root, join(dir, 'small.png')) }), /is 64×64; the stores need at least 128×128/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(problemsWith({ icon: 'docs/screenshots/chat-card.png' }).filter((problem) => /icon/.test(problem)).length, 0, 'a large PNG is fine');
});

test('the .vsix holds README, CHANGELOG, LICENSE and the icon, no development files, within its budget', { timeout: 30_000 }, () => {
  assertRefused(problemsWith({}, shipped.filter((name) => name !== 'LICENSE.txt')), /no LICENSE in the \.vsix/);
  assertRefused(problemsWith({}, shipped.filter((name) => name !== 'readme.md')), /readme\.md missing from the \.vsix/);
  assertRefused(problemsWith({}, shipped.filter((name) => name !== 'changelog.md')), /changelog\.md missing/);
  assertRefused(problemsWith({}, shipped.filter((name) => name !== 'media/xos.png')), /icon media\/xos\.png is missing from the \.vsix/);
  assertRefused(problemsWith({}, [...shipped, 'src/extension.ts', 'dist/host.cjs.map', 'test/unit/a.test.js']), /development files in the \.vsix: src\/extension\.ts, dist\/host\.cjs\.map, test\/unit\/a\.test\.js/);
  assertRefused(problemsWith({}, shipped, VSIX_BUDGET_BYTES + 1), /over its budget/);
});

test('README images: what markdownImages finds', () => {
  const markdown = '![Board](docs/screenshots/board.png)\n<img alt="x" src="https://example.com/a.svg">\n![badge]( <http://example.com/b.png> )';
  assert.deepEqual(markdownImages(markdown), ['docs/screenshots/board.png', 'http://example.com/b.png', 'https://example.com/a.svg']);
});
