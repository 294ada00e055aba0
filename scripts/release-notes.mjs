// The release notes of a tag: its version's section of CHANGELOG.md. Refuses a tag whose version
// is not package.json's (the packages would carry another version than the release) and a version
// the changelog does not describe.
//   node scripts/release-notes.mjs --tag v0.2.0 [--out dist/release-notes.md]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { changelogSection, tagVersion } from './lib/changelog.mjs';
import { repoRoot } from './lib/paths.mjs';

function fail(message) {
  console.error(`release-notes: ${message}`);
  process.exit(1);
}

const { values } = parseArgs({ options: { tag: { type: 'string' }, out: { type: 'string' } }, strict: true });
if (!values.tag) fail('give the release tag: --tag v<version>');
const version = tagVersion(values.tag);
if (!version) fail(`the tag ${values.tag} is not v<major>.<minor>.<patch>`);
const { version: packageVersion } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
if (version !== packageVersion) fail(`the tag ${values.tag} names ${version}, but package.json has ${packageVersion}`);
const notes = changelogSection(readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8'), version);
if (!notes) fail(`CHANGELOG.md has no section "## [${version}]" with text: rename "## [Unreleased]" to it before tagging`);
if (values.out) {
  const out = resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${notes}\n`);
} else {
  process.stdout.write(`${notes}\n`);
}
