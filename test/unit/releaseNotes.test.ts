// The release notes of a tag (scripts/release-notes.mjs): its version's section of CHANGELOG.md,
// read in the file's own format, and refusals for a tag that does not match package.json or the
// changelog.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { changelogSection, tagVersion } from '../../scripts/lib/changelog.mjs';

const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const script = fileURLToPath(new URL('../../scripts/release-notes.mjs', import.meta.url));

test('the Unreleased section of the real CHANGELOG.md is its text under the heading, without the file\'s preamble', () => {
  const section = changelogSection(changelog, 'Unreleased');
  assert.ok(section, 'CHANGELOG.md has "## [Unreleased]"');
  assert.match(section, /^### /, 'starts with its first subsection');
  assert.doesNotMatch(section, /^# Changelog|All notable changes|^## /m);
  assert.ok(changelog.trimEnd().endsWith(section.trimEnd()), 'the last section reaches the end of the file');
});

test('a released version\'s section ends at the next heading; link definitions closing the file are left out', () => {
  const unreleased = changelogSection(changelog, 'Unreleased')!;
  // The real file as it looks once "## [Unreleased]" became a release, with an older one below.
  const released = `${changelog.replace('## [Unreleased]', '## [Unreleased]\n\n## [0.2.0] - 2026-12-05')}
## [0.1.0] - 2026-11-01

### Added
- The first Board.

[0.2.0]: https://github.com/xos/xos-vscode/compare/v0.1.0...v0.2.0
[0.1.0]: https://github.com/xos/xos-vscode/releases/tag/v0.1.0
`;
  assert.equal(changelogSection(released, '0.2.0'), unreleased.trimEnd());
  assert.equal(changelogSection(released, '0.1.0'), '### Added\n- The first Board.');
  assert.equal(changelogSection(released, 'Unreleased'), '');
  assert.equal(changelogSection(released, '0.1'), undefined, 'a version prefix is another version');
  assert.equal(changelogSection(released, '0.3.0'), undefined);
  assert.equal(changelogSection('## 1.0.0\r\n- Windows line ends.\r\n', '1.0.0'), '- Windows line ends.');
});

test('tagVersion reads v<semver> tags only', () => {
  assert.equal(tagVersion('v0.2.0'), '0.2.0');
  assert.equal(tagVersion('v1.0.0-rc.1'), '1.0.0-rc.1');
  assert.equal(tagVersion('0.2.0'), undefined);
  assert.equal(tagVersion('v0.2'), undefined);
  assert.equal(tagVersion('vnext'), undefined);
});

test('the script refuses a tag of another version than package.json, and a version CHANGELOG.md does not describe', () => {
  const run = (tag: string) => spawnSync(process.execPath, [script, '--tag', tag], { encoding: 'utf8' });
  const other = run('v99.0.0');
  assert.equal(other.status, 1);
  assert.match(other.stderr, new RegExp(`the tag v99\\.0\\.0 names 99\\.0\\.0, but package\\.json has ${version.replace(/\./g, '\\.')}`));
  assert.match(run('release-1').stderr, /the tag release-1 is not v<major>\.<minor>\.<patch>/);
  const current = run(`v${version}`);
  if (changelogSection(changelog, version)) {
    assert.equal(current.status, 0, current.stderr);
    assert.equal(current.stdout.trimEnd(), changelogSection(changelog, version));
  } else {
    assert.equal(current.status, 1);
    assert.match(current.stderr, new RegExp(`CHANGELOG\\.md has no section "## \\[${version.replace(/\./g, '\\.')}\\]" with text`));
  }
});
