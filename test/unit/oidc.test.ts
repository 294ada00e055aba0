// OpenID Connect without a provider: which claim names the person and when it is refused, which
// bearers take the JWT path, and which issuer URLs xos-server accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issuerProblem, looksLikeJwt, nameFromClaims } from '../../src/backend/people/oidc.ts';
import { newToken } from '../../src/backend/people/users.ts';

test('the name: preferred_username, else email, else sub; or the one --oidc-claim names', () => {
  assert.deepEqual(nameFromClaims({ preferred_username: 'anna', email: 'x@example.org', sub: 's1' }), { name: 'anna', claim: 'preferred_username' });
  assert.deepEqual(nameFromClaims({ email: 'j.smith', email_verified: true, sub: 's1' }), { name: 'j.smith', claim: 'email' });
  assert.deepEqual(nameFromClaims({ preferred_username: '', sub: 'a1b2-c3' }), { name: 'a1b2-c3', claim: 'sub' });
  // A claim that is not a string does not count; the next one does.
  assert.deepEqual(nameFromClaims({ preferred_username: 42, sub: 'bob' }), { name: 'bob', claim: 'sub' });
  assert.deepEqual(nameFromClaims({ preferred_username: 'anna', upn: 'a.k' }, 'upn'), { name: 'a.k', claim: 'upn' });
});

test('a name that breaks the user name rules is refused, saying which claim', () => {
  const cases: Array<[Record<string, unknown>, string | undefined, RegExp]> = [
    [{ preferred_username: 'anna maria' }, undefined, /^The token's "preferred_username" claim "anna maria" is not a valid user name: use 1 to 64 letters/],
    [{ email: 'anna@example.org', email_verified: true }, undefined, /^The token's "email" claim "anna@example\.org" is not a valid user name.*--oidc-claim/],
    // An address the provider has not verified names nobody, valid name or not, chosen or by default.
    [{ email: 'j.smith', sub: 's1' }, undefined, /names the person by "email", but the identity provider has not verified that address \(email_verified is not true\)/],
    [{ email: 'j.smith', email_verified: 'true' }, 'email', /has not verified that address/],
    [{ sub: 'x'.repeat(65) }, undefined, /"sub" claim "x{65}" is not a valid user name/],
    [{ preferred_username: 'zoë' }, undefined, /"preferred_username" claim "zoë" is not a valid user name/],
    [{ upn: 'a\nb' }, 'upn', /"upn" claim .* is not a valid user name/],
    [{}, undefined, /none of the claims preferred_username, email, sub/],
    [{ preferred_username: 'anna' }, 'upn', /has no "upn" claim \(a string\)/],
  ];
  for (const [payload, claim, message] of cases) {
    const named = nameFromClaims(payload, claim);
    assert.ok('problem' in named, JSON.stringify(payload));
    assert.match(named.problem, message);
  }
  // A long value is cut short in the message.
  const long = nameFromClaims({ sub: 'y'.repeat(500) });
  assert.ok('problem' in long && long.problem.length < 400);
});

test('only a bearer of three base64url parts takes the JWT path; a person token never does', () => {
  assert.equal(looksLikeJwt('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln'), true);
  assert.equal(looksLikeJwt('eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.'), true, 'alg none is refused by the JWT path, not passed on');
  for (const token of [newToken(), 'plain-api-token-0123456789', 'a.b', 'a.b.c.d', 'a b.c.d', '.b.c', '']) assert.equal(looksLikeJwt(token), false, token);
});

test('the issuer: https, or http on this machine only', () => {
  for (const url of ['https://login.example.com/realms/team', 'http://127.0.0.1:8080', 'http://localhost:9000/oidc', 'http://[::1]:80']) assert.equal(issuerProblem(url), undefined, url);
  assert.match(issuerProblem('http://login.example.com') ?? '', /plain http to another machine/);
  assert.match(issuerProblem('ftp://login.example.com') ?? '', /must start with https:\/\//);
  assert.match(issuerProblem('login.example.com') ?? '', /is not a URL/);
  assert.match(issuerProblem('https://u:p@login.example.com') ?? '', /without a user, password, query or fragment/);
});
