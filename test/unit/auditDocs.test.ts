// The README's audit API says what the GraphQL API takes and gives: every argument of
// `xos_audit` and `xos_audit_count` (the `batch` filter was once left out) and every field of
// an entry, read from the schema itself so a new one cannot go undocumented.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { getNamedType, isObjectType } from 'graphql';
import { auditFields } from '../../src/backend/graphql/audit.ts';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

function auditSection(): string {
  const start = readme.indexOf('The audit trail: `xos_audit(');
  const end = readme.indexOf('`xos_audit_mail(', start);
  assert.ok(start >= 0 && end > start, "README.md has the audit API's paragraph");
  return readme.slice(start, end).replace(/\s+/g, ' ');
}

test("the README's audit API names every argument of xos_audit and xos_audit_count", () => {
  const section = auditSection();
  const { query } = auditFields();
  for (const name of ['xos_audit', 'xos_audit_count'] as const) {
    const signature = new RegExp(`\`${name}\\(([^)]*)\\)\``).exec(section);
    assert.ok(signature, `${name}(…) is in the paragraph`);
    assert.deepEqual(signature[1]!.split(',').map((arg) => arg.trim()).sort(), Object.keys(query[name]!.args ?? {}).sort(), `${name}'s arguments`);
  }
});

test("the README's audit API names every field of an entry", () => {
  const section = auditSection();
  const entry = getNamedType(auditFields().query.xos_audit!.type);
  assert.ok(isObjectType(entry));
  const missing = Object.keys(entry.getFields()).filter((field) => !section.includes(`\`${field}\``) && !section.includes(`\`${field} {`));
  assert.deepEqual(missing, []);
});
