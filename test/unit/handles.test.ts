// Workflow handles (src/mcp/handles.ts): signed for one credential, client and conversation,
// checked against the caller, valid for a lifetime, kept nowhere (so no number of them evicts
// another client's), and unknown to a new store (a restart: a new key).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testClock as clock } from '../support/clock.ts';
import { HANDLE_MAX_LENGTH, HANDLE_PREFIX, WorkflowHandles } from '../../src/mcp/handles.ts';

const HOUR = 60 * 60 * 1000;
const CLAUDE = { client: 'claude-ai via http' };
const CHAT_A = { client: 'vscode via http', conversation: 'chat-a' };


describe('mint and check', () => {
  test('a minted handle is ok for its scope and shows the schema loaded', () => {
    const handles = new WorkflowHandles();
    const handle = handles.mint(CLAUDE);
    assert.deepEqual(handles.check(handle, CLAUDE), { status: 'ok', facts: { schema: true } });
    assert.deepEqual(handles.check(handle, { client: CLAUDE.client }), { status: 'ok', facts: { schema: true } }, 'an equal scope, not the same object');
  });

  test('a handle is the same only for the same scope, facts and second of expiry', () => {
    const time = clock();
    const handles = new WorkflowHandles({ now: time.now });
    assert.equal(handles.mint(CLAUDE), handles.mint(CLAUDE));
    assert.notEqual(handles.mint(CLAUDE), handles.mint(CHAT_A));
    const first = handles.mint(CLAUDE);
    time.advance(1_000);
    assert.notEqual(handles.mint(CLAUDE), first);
    assert.notEqual(new WorkflowHandles({ now: time.now }).mint(CLAUDE), handles.mint(CLAUDE), 'another store signs with another key');
  });

  test('a handle never minted here is unknown, also one that looks like ours', () => {
    const handles = new WorkflowHandles();
    const ours = handles.mint(CLAUDE);
    assert.deepEqual(handles.check(`${HANDLE_PREFIX}${'A'.repeat(22)}`, CLAUDE), { status: 'unknown' });
    assert.deepEqual(handles.check(ours.slice(0, -1), CLAUDE), { status: 'unknown' });
    assert.deepEqual(handles.check('', CLAUDE), { status: 'unknown' });
    // Every single character changed (the facts, the expiry, the scope tag, the seal): not ours.
    const body = ours.slice(HANDLE_PREFIX.length);
    for (let i = 0; i < body.length; i += 1) {
      const changed = body.slice(0, i) + (body[i] === 'A' ? 'B' : 'A') + body.slice(i + 1);
      assert.deepEqual(handles.check(HANDLE_PREFIX + changed, CLAUDE), { status: 'unknown' }, `character ${i} changed`);
    }
  });

  test('a handle of another client or another conversation is foreign, and stays usable for its own', () => {
    const handles = new WorkflowHandles();
    const claude = handles.mint(CLAUDE);
    const chatA = handles.mint(CHAT_A);
    assert.deepEqual(handles.check(claude, { client: 'other-client via http' }), { status: 'foreign' });
    assert.deepEqual(handles.check(claude, { client: 'claude-ai via stdio' }), { status: 'foreign' }, 'the same name over another transport');
    assert.deepEqual(handles.check(chatA, { ...CHAT_A, conversation: 'chat-b' }), { status: 'foreign' });
    assert.deepEqual(handles.check(chatA, { client: CHAT_A.client }), { status: 'foreign' }, 'minted in a conversation, used without one');
    assert.deepEqual(handles.check(claude, { ...CLAUDE, conversation: 'chat-a' }), { status: 'foreign' }, 'minted without a conversation, used in one');
    assert.equal(handles.check(claude, CLAUDE).status, 'ok');
    assert.equal(handles.check(chatA, CHAT_A).status, 'ok');
  });

  test('a new store (a restart) knows none of the old handles', () => {
    const before = new WorkflowHandles();
    const handle = before.mint(CLAUDE);
    before.markConversation(CHAT_A);
    const after = new WorkflowHandles();
    assert.deepEqual(after.check(handle, CLAUDE), { status: 'unknown' });
    assert.deepEqual(after.conversationFacts(CHAT_A), {});
    assert.equal(before.check(handle, CLAUDE).status, 'ok');
  });
});

describe('what a handle carries', () => {
  test('no word of its scope: its length does not follow the scope, and it fits the tools\' limit', () => {
    const handles = new WorkflowHandles();
    const scope = { credential: 'bearer token sha256:abc', client: 'Max Mustermann <max@example.org> via http', conversation: `person 17 net_worth 1000000 ${'x'.repeat(400)}` };
    const handle = handles.mint(scope);
    assert.match(handle, /^xos_h_[A-Za-z0-9_-]{36}$/, '27 bytes, base64url');
    assert.ok(handle.length <= HANDLE_MAX_LENGTH);
    for (const word of ['Mustermann', 'example', 'net_worth', '1000000', 'xxxxxxx', 'schema', 'bearer', 'abc']) {
      assert.ok(!handle.toLowerCase().includes(word.toLowerCase()), `${handle} contains ${word}`);
    }
    assert.equal(handles.mint(CLAUDE).length, handle.length);
  });

  test('the same names with another credential are another scope', () => {
    const handles = new WorkflowHandles();
    const handle = handles.mint({ ...CLAUDE, credential: 'bearer token sha256:one' });
    assert.deepEqual(handles.check(handle, { ...CLAUDE, credential: 'bearer token sha256:two' }), { status: 'foreign' });
    assert.equal(handles.check(handle, { ...CLAUDE, credential: 'bearer token sha256:one' }).status, 'ok');
  });
});

describe('bounds', () => {
  test('no number of handles minted for one client makes another client\'s fail', () => {
    const handles = new WorkflowHandles({ maxEntries: 3 });
    const mine = handles.mint(CHAT_A);
    for (let i = 0; i < 5_000; i += 1) handles.mint({ client: 'flooding via http', conversation: `c${i}` });
    assert.deepEqual(handles.check(mine, CHAT_A), { status: 'ok', facts: { schema: true } });
  });

  test('a credential naming many conversations pushes out only its own, never another credential\'s', () => {
    const handles = new WorkflowHandles({ maxEntries: 3 });
    const mine = { client: 'claude-ai via http', conversation: 'mine', credential: 'bearer token sha256:mine' };
    handles.markConversation(mine);
    for (let i = 0; i < 1_001; i += 1) handles.markConversation({ client: 'claude-ai via http', conversation: `c${i}`, credential: 'bearer token sha256:flood' });
    assert.deepEqual(handles.conversationFacts(mine), { schema: true });
    assert.equal(handles.size, 4, 'the flood keeps only its own last 3');
    assert.deepEqual(handles.conversationFacts({ client: 'claude-ai via http', conversation: 'c0', credential: 'bearer token sha256:flood' }), {});
  });

  test('the credentials kept are bounded too: the least recently used goes first', () => {
    const handles = new WorkflowHandles({ maxEntries: 3, maxCredentials: 2 });
    const scope = (credential: string) => ({ client: 'c via http', conversation: 'x', credential });
    handles.markConversation(scope('one'));
    handles.markConversation(scope('two'));
    assert.deepEqual(handles.conversationFacts(scope('one')), { schema: true }, 'a read counts as a use');
    handles.markConversation(scope('three'));
    assert.deepEqual(handles.conversationFacts(scope('two')), {});
    assert.deepEqual(handles.conversationFacts(scope('one')), { schema: true });
    assert.deepEqual(handles.conversationFacts(scope('three')), { schema: true });
  });

  test('a handle is valid for the lifetime after it was minted, then expired', () => {
    const time = clock();
    const handles = new WorkflowHandles({ idleMs: 8 * HOUR, now: time.now });
    const handle = handles.mint(CLAUDE);
    time.advance(8 * HOUR - 1_000);
    assert.equal(handles.check(handle, CLAUDE).status, 'ok');
    time.advance(1_000);
    assert.deepEqual(handles.check(handle, CLAUDE), { status: 'expired' });
    assert.deepEqual(handles.check(handle, { client: 'another' }), { status: 'expired' }, 'expired before foreign, as before');
  });

  test('the default lifetime is 8 hours', () => {
    const time = clock();
    const handles = new WorkflowHandles({ now: time.now });
    const handle = handles.mint(CLAUDE);
    time.advance(8 * HOUR - 1_000);
    assert.equal(handles.check(handle, CLAUDE).status, 'ok');
    time.advance(1_000);
    assert.deepEqual(handles.check(handle, CLAUDE), { status: 'expired' });
  });

  test('options without room or lifetime are refused', () => {
    assert.throws(() => new WorkflowHandles({ maxEntries: 0 }));
    assert.throws(() => new WorkflowHandles({ maxCredentials: 0 }));
    assert.throws(() => new WorkflowHandles({ idleMs: 0 }));
  });
});

describe('conversations', () => {
  test('a conversation marked for one client is known to that client only, and only by its own id', () => {
    const handles = new WorkflowHandles();
    handles.markConversation(CHAT_A);
    assert.deepEqual(handles.conversationFacts(CHAT_A), { schema: true });
    assert.deepEqual(handles.conversationFacts({ ...CHAT_A, conversation: 'chat-b' }), {});
    assert.deepEqual(handles.conversationFacts({ client: 'another via http', conversation: 'chat-a' }), {});
  });

  test('without a conversation nothing is marked', () => {
    const handles = new WorkflowHandles();
    handles.markConversation(CLAUDE);
    assert.deepEqual(handles.conversationFacts(CLAUDE), {});
  });

  test('conversations are bounded and expire like handles', () => {
    const time = clock();
    const handles = new WorkflowHandles({ maxEntries: 2, idleMs: HOUR, now: time.now });
    const chat = (conversation: string) => ({ client: 'vscode via http', conversation });
    handles.markConversation(chat('a'));
    handles.markConversation(chat('b'));
    handles.markConversation(chat('c'));
    assert.deepEqual(handles.conversationFacts(chat('a')), {}, 'the least recently used went');
    assert.deepEqual(handles.conversationFacts(chat('b')), { schema: true });
    time.advance(HOUR);
    assert.deepEqual(handles.conversationFacts(chat('c')), {});
  });
});
