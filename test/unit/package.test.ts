// `npm run package`: the .vsix holds the bundles, manifest, texts, media, README, CHANGELOG and
// LICENSE, and nothing from the source tree (no tests, no TypeScript, no source maps, no
// node_modules); the Marketplace and Open VSX find nothing to refuse in it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { manifest, packageExtension } from '../../scripts/lib/package.mjs';
import { marketplaceProblems } from '../../scripts/lib/marketplace.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { listZipEntries, readZipEntry } from '../../scripts/lib/zip.mjs';
import { formatBytes } from '../../scripts/lib/format.mjs';

test('the packaged .vsix contains exactly the shipped files', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'xos-vsix-'));
  try {
    const { path, bytes } = await packageExtension({ out: join(dir, 'xos.vsix'), quiet: true });
    const names = listZipEntries(path).map((entry) => entry.name);
    console.log(`xos.vsix: ${formatBytes(bytes)}, ${names.length} entries`);

    const shipped = names.filter((name) => name.startsWith('extension/')).map((name) => name.slice('extension/'.length));
    for (const required of [
      'package.json', 'package.nls.json', 'package.nls.de.json', 'l10n/bundle.l10n.de.json',
      'dist/extension.cjs', 'dist/host.cjs', 'dist/backendWorker.mjs', 'dist/webview/board.js', 'dist/xos-server.mjs',
      'media/xos.png', 'media/xos-activity.svg', 'media/demo/crm.json', 'readme.md', 'changelog.md', 'LICENSE.txt',
    ]) {
      assert.ok(shipped.includes(required), `${required} missing from the .vsix: ${shipped.join(', ')}`);
    }
    assert.deepEqual(shipped.filter((name) => /(^|\/)test\//.test(name)), [], 'tests in the .vsix');
    assert.deepEqual(shipped.filter((name) => /\.m?ts$/.test(name)), [], 'TypeScript sources in the .vsix');
    assert.deepEqual(shipped.filter((name) => name.endsWith('.map')), [], 'source maps in the .vsix');
    assert.deepEqual(shipped.filter((name) => name.includes('node_modules/')), [], 'node_modules in the .vsix');
    assert.deepEqual(shipped.filter((name) => /^(src|webview|scripts|bench|\.xos|\.vscode)\//.test(name)), [], 'sources in the .vsix');
    // The bundles and the demo data are about 1.3 MB compressed; marketplaceProblems holds the budget.
    assert.ok(bytes > 50 * 1024, `unexpected .vsix size ${formatBytes(bytes)}`);
    assert.deepEqual(marketplaceProblems(manifest(), { root: repoRoot, files: shipped, bytes }), []);

    // What the stores read from the package's own manifest: licence, icon, banner, links.
    const vsixManifest = readZipEntry(path, 'extension.vsixmanifest').toString('utf8');
    const { galleryBanner, bugs, categories } = manifest() as unknown as { galleryBanner: { color: string }; bugs: { url: string }; categories: string[] };
    assert.ok(vsixManifest.includes('<License>extension/LICENSE.txt</License>'), vsixManifest);
    assert.ok(vsixManifest.includes('<Icon>extension/media/xos.png</Icon>'));
    assert.ok(vsixManifest.includes(`Id="Microsoft.VisualStudio.Services.Branding.Color" Value="${galleryBanner.color}"`));
    assert.ok(vsixManifest.includes(`Id="Microsoft.VisualStudio.Services.Links.Support" Value="${bugs.url}"`));
    assert.ok(vsixManifest.includes(`<Categories>${categories.join(',')}</Categories>`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
