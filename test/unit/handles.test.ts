// Workflow handles (src/mcp/handles.ts): minted at random for one client and conversation,
// checked against the caller, bounded in number (least recently used evicted) and in idle time,
// and forgotten with the store (a restart).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLE_MAX_LENGTH, HANDLE_PREFIX, WorkflowHandles } from '../../src/mcp/handles.ts';

const HOUR = 60 * 60 * 1000;
const CLAUDE = { client: 'claude-ai via http' };
const CHAT_A = { client: 'vscode via http', conversation: 'chat-a' };

/** A clock the test turns. */
function clock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let time = start;
  return { now: () => time, advance: (ms) => { time += ms; } };
}

describe('mint and check', () => {
  test('a minted handle is ok for its scope and shows the schema loaded', () => {
    const handles = new WorkflowHandles();
    const handle = handles.mint(CLAUDE);
    assert.deepEqual(handles.check(handle, CLAUDE), { status: 'ok', facts: { schema: true } });
    assert.deepEqual(handles.check(handle, { client: CLAUDE.client }), { status: 'ok', facts: { schema: true } }, 'an equal scope, not the same object');
  });

  test('each mint is a new handle', () => {
    const handles = new WorkflowHandles();
    const minted = new Set(Array.from({ length: 100 }, () => handles.mint(CLAUDE)));
    assert.equal(minted.size, 100);
  });

  test('a handle never minted here is unknown, also one that looks like ours', () => {
    const handles = new WorkflowHandles();
    const ours = handles.mint(CLAUDE);
    assert.deepEqual(handles.check(`${HANDLE_PREFIX}${'A'.repeat(22)}`, CLAUDE), { status: 'unknown' });
    assert.deepEqual(handles.check(ours.slice(0, -1), CLAUDE), { status: 'unknown' });
    assert.deepEqual(handles.check('', CLAUDE), { status: 'unknown' });
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
  test('only randomness: its length does not follow the scope, and no word of the scope is in it', () => {
    const handles = new WorkflowHandles();
    const scope = { client: 'Max Mustermann <max@example.org> via http', conversation: `person 17 net_worth 1000000 ${'x'.repeat(400)}` };
    for (let i = 0; i < 50; i += 1) {
      const handle = handles.mint(scope);
      assert.match(handle, /^xos_h_[A-Za-z0-9_-]{22}$/, '16 random bytes, base64url');
      assert.equal(Buffer.from(handle.slice(HANDLE_PREFIX.length), 'base64url').length, 16);
      assert.ok(handle.length <= HANDLE_MAX_LENGTH);
      for (const word of ['Mustermann', 'example', 'net_worth', '1000000', 'xxxxxxx', 'schema']) {
        assert.ok(!handle.toLowerCase().includes(word.toLowerCase()), `${handle} contains ${word}`);
      }
    }
    assert.equal(handles.mint(CLAUDE).length, handles.mint(scope).length);
  });
});

describe('bounds', () => {
  test('past the bound the least recently used handle is evicted; a check counts as a use', () => {
    const handles = new WorkflowHandles({ maxEntries: 3 });
    const first = handles.mint(CLAUDE);
    const second = handles.mint(CLAUDE);
    const third = handles.mint(CLAUDE);
    assert.equal(handles.check(first, CLAUDE).status, 'ok', 'first is now the most recently used');
    const fourth = handles.mint(CLAUDE);
    assert.equal(handles.size, 3);
    assert.deepEqual(handles.check(second, CLAUDE), { status: 'unknown' }, 'second was the least recently used');
    for (const kept of [first, third, fourth]) assert.equal(handles.check(kept, CLAUDE).status, 'ok');
  });

  test('the default bound is 1,000 handles', () => {
    const handles = new WorkflowHandles();
    const oldest = handles.mint(CLAUDE);
    for (let i = 0; i < 1_000; i += 1) handles.mint(CLAUDE);
    assert.equal(handles.size, 1_000);
    assert.deepEqual(handles.check(oldest, CLAUDE), { status: 'unknown' });
  });

  test('a foreign check does not keep a handle alive', () => {
    const handles = new WorkflowHandles({ maxEntries: 2 });
    const first = handles.mint(CLAUDE);
    const second = handles.mint(CLAUDE);
    assert.equal(handles.check(first, { client: 'another' }).status, 'foreign');
    handles.mint(CLAUDE);
    assert.deepEqual(handles.check(first, CLAUDE), { status: 'unknown' });
    assert.equal(handles.check(second, CLAUDE).status, 'ok');
  });

  test('a handle unused for the lifetime is expired, then unknown; a use keeps it alive', () => {
    const time = clock();
    const handles = new WorkflowHandles({ idleMs: 8 * HOUR, now: time.now });
    const used = handles.mint(CLAUDE);
    const idle = handles.mint(CLAUDE);
    time.advance(5 * HOUR);
    assert.equal(handles.check(used, CLAUDE).status, 'ok');
    time.advance(3 * HOUR);
    assert.deepEqual(handles.check(idle, CLAUDE), { status: 'expired' });
    assert.deepEqual(handles.check(idle, CLAUDE), { status: 'unknown' }, 'an expired handle is dropped once seen');
    assert.equal(handles.check(used, CLAUDE).status, 'ok', '3 h since its last use');
    time.advance(8 * HOUR - 1);
    assert.equal(handles.check(used, CLAUDE).status, 'ok', 'just inside the lifetime');
  });

  test('the default lifetime is 8 hours idle', () => {
    const time = clock();
    const handles = new WorkflowHandles({ now: time.now });
    const handle = handles.mint(CLAUDE);
    time.advance(8 * HOUR - 1);
    assert.equal(handles.check(handle, CLAUDE).status, 'ok');
    time.advance(8 * HOUR);
    assert.deepEqual(handles.check(handle, CLAUDE), { status: 'expired' });
  });

  test('expired handles are swept when a new one is minted, so an idle server holds none', () => {
    const time = clock();
    const handles = new WorkflowHandles({ idleMs: HOUR, now: time.now });
    for (let i = 0; i < 10; i += 1) handles.mint(CLAUDE);
    time.advance(HOUR);
    handles.mint(CLAUDE);
    assert.equal(handles.size, 1);
  });

  test('options without room or lifetime are refused', () => {
    assert.throws(() => new WorkflowHandles({ maxEntries: 0 }));
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
