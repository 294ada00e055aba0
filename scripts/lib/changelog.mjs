// Sections of CHANGELOG.md ("## [0.2.0] - 2026-12-05" or "## [Unreleased]", Keep a Changelog),
// for the release notes of a tag (scripts/release-notes.mjs).

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The body of the section for `version` (e.g. "0.2.0" or "Unreleased"): everything under its
 * "## " heading up to the next one, without the link definitions that close the file; undefined
 * when the changelog has no such section.
 */
export function changelogSection(changelog, version) {
  const lines = changelog.replace(/\r\n/g, '\n').split('\n');
  const heading = new RegExp(`^## \\[?v?${escapeRegExp(version)}\\]?(\\s|$)`, 'i');
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return undefined;
  const next = lines.findIndex((line, index) => index > start && /^## /.test(line));
  const body = lines.slice(start + 1, next < 0 ? lines.length : next);
  // "[0.2.0]: https://…" lines belong to the whole file, not to the last section.
  while (body.length && (body.at(-1).trim() === '' || /^\[[^\]]+\]:\s*\S+$/.test(body.at(-1).trim()))) body.pop();
  while (body.length && body[0].trim() === '') body.shift();
  return body.join('\n');
}

/** The version a release tag names ("v0.2.0" → "0.2.0"), or undefined for another kind of tag. */
export function tagVersion(tag) {
  return /^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(tag)?.[1];
}
