// Strict address parsing and draft building.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAddress, parseAddress } from '../../src/mail/address.ts';
import { createDraft, headerProblem } from '../../src/mail/draft.ts';

test('bare and named addresses; domains lower-cased to punycode', () => {
  assert.deepEqual(parseAddress('erika@example.org'), { email: 'erika@example.org' });
  assert.deepEqual(parseAddress('  Erika Muster <erika@Example.ORG> '), { name: 'Erika Muster', email: 'erika@example.org' });
  assert.deepEqual(parseAddress('"Muster, Erika" <erika@example.org>'), { name: 'Muster, Erika', email: 'erika@example.org' });
  assert.deepEqual(parseAddress('<erika@example.org>'), { email: 'erika@example.org' });
  assert.deepEqual(parseAddress('Jürgen <j@müller.example>'), { name: 'Jürgen', email: 'j@xn--mller-kva.example' });
  assert.equal(formatAddress({ name: 'Jürgen', email: 'j@xn--mller-kva.example' }), 'Jürgen <j@xn--mller-kva.example>');
  assert.equal(formatAddress({ email: 'j@xn--mller-kva.example' }), 'j@xn--mller-kva.example');
});

test('anything else is refused with the reason', () => {
  assert.equal(parseAddress('erika'), '"erika" is not an email address (expected local@domain)');
  assert.equal(parseAddress('erika@'), '"erika@" is not an email address (expected local@domain)');
  assert.equal(parseAddress('er ika@example.org'), '"er ika@example.org" has an invalid local part "er ika"');
  assert.equal(parseAddress('jürgen@example.org'), '"jürgen@example.org" has an invalid local part "jürgen"');
  assert.equal(parseAddress('a..b@example.org'), '"a..b@example.org" has an invalid local part "a..b"');
  assert.equal(parseAddress('erika@localhost'), '"erika@localhost" has an invalid domain');
  assert.equal(parseAddress('erika@-x.example'), '"erika@-x.example" has an invalid domain');
  assert.equal(parseAddress('a@b.example, c@d.example'), '"a@b.example, c@d.example" has an invalid local part "a@b.example, c"');
  assert.equal(parseAddress('Eve <e@x.example>\r\nBcc: all@x.example'), '"Eve <e@x.example>\\r\\nBcc: all@x.example" contains a line break or control character');
  assert.equal(parseAddress('E<v>e <e@x.example>'), '"E<v>e <e@x.example>" has a malformed display name');
});

test('drafts refuse a line break in every header field', () => {
  assert.deepEqual(createDraft({ name: 'Erika', email: 'erika@Example.org' }, 'Hi', 'Line 1\nLine 2'), { to: { name: 'Erika', email: 'erika@example.org' }, subject: 'Hi', body: 'Line 1\nLine 2' });
  assert.equal(createDraft({ email: 'erika@example.org' }, 'Hi\r\nBcc: all@x.example', ''), 'The subject contains a line break; header fields must be a single line.');
  assert.equal(createDraft({ name: 'Erika\nBcc: x@x.example', email: 'erika@example.org' }, 'Hi', ''), 'The recipient name contains a line break; header fields must be a single line.');
  assert.equal(createDraft({ email: 'erika@example.org\r\nBcc: x@x.example' }, 'Hi', ''), 'The recipient address contains a line break; header fields must be a single line.');
  assert.equal(headerProblem({ to: { email: 'e@x.example' }, subject: 'Hi', body: '' }, { name: 'XOS\rBcc: y@x.example', email: 'xos@x.example' }), 'The sender name contains a line break; header fields must be a single line.');
  assert.equal(headerProblem({ to: { email: 'e@x.example' }, subject: 'Hi', body: '' }, { email: 'xos@x.example\n' }), 'The sender address contains a line break; header fields must be a single line.');
});

test('display names are capped and may not hide or reorder text, for recipient and sender alike', async () => {
  const { smtpSettingsProblems } = await import('../../src/mail/smtp.ts');
  assert.equal(parseAddress(`${'A'.repeat(101)} <a@example.org>`), 'The display name has 101 characters; at most 100 are allowed. Send the bare address or a shorter name.');
  assert.deepEqual(parseAddress(`${'A'.repeat(100)} <a@example.org>`), { name: 'A'.repeat(100), email: 'a@example.org' });
  assert.equal(headerProblem({ to: { name: 'Bob\u202Eexample.org', email: 'e@x.example' }, subject: 'Hi', body: '' }),
    'The recipient name contains invisible, direction-changing or blank-looking characters (U+202E). Send the bare address or the name without them.');
  assert.deepEqual(smtpSettingsProblems({ host: 'smtp.example.org', port: 587, security: 'starttls', from: 'XOS\u200B <xos@example.org>' }),
    ['xos.mail.from: The display name contains invisible, direction-changing or blank-looking characters (U+200B). Send the bare address or the name without them.']);
});
