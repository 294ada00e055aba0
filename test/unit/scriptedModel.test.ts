// The scripted model's step logic (test/extensions/scripted-model), outside VS Code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextReply, UTILITY_REPLY, type Script } from '../extensions/scripted-model/src/script.ts';

const offered = ['read_file', 'mcp_xos_xos_schema', 'mcp_xos_xos_query', 'mcp_xos-test-mcp_ping'];
const script: Script = {
  'Show people': [{ tool: 'xos_schema' }, { tool: 'xos_query', input: { query: '{ person_list { id } }' } }, { say: 'Done: {{lastResult}}' }],
  'Show people in Berlin': [{ say: 'Berlin only' }],
  ping: [{ tool: 'ping', input: { text: 'x' } }],
};
// The chat's context mentions words like "mapping"; only the user's request counts.
const prompt = (text: string) => `<context>mapping, Show people</context>\n<userRequest>\n${text}\n</userRequest>\n`;

test('the first step of the matching prompt calls its tool by suffix', () => {
  assert.deepEqual(nextReply(script, { prompt: prompt('Show people'), toolResults: [] }, offered),
    { kind: 'tool', name: 'mcp_xos_xos_schema', input: {} });
});

test('each tool result moves to the next step; the final text quotes the last result', () => {
  assert.deepEqual(nextReply(script, { prompt: prompt('Show people'), toolResults: ['schema'] }, offered),
    { kind: 'tool', name: 'mcp_xos_xos_query', input: { query: '{ person_list { id } }' } });
  assert.deepEqual(nextReply(script, { prompt: prompt('Show people'), toolResults: ['schema', '[{"id":"1"}]'] }, offered),
    { kind: 'text', text: 'Done: [{"id":"1"}]' });
});

test('the longest key found in the prompt wins', () => {
  assert.deepEqual(nextReply(script, { prompt: prompt('Show people in Berlin'), toolResults: [] }, offered), { kind: 'text', text: 'Berlin only' });
});

test('a request without tools gets the utility reply', () => {
  assert.deepEqual(nextReply(script, { prompt: prompt('Show people'), toolResults: [] }, []), { kind: 'text', text: UTILITY_REPLY });
});

test('an unknown prompt, a missing tool and the end of the script say so', () => {
  assert.deepEqual(nextReply(script, { prompt: prompt('Hello'), toolResults: [] }, offered),
    { kind: 'text', text: 'The script has no steps for this prompt (keys: Show people, Show people in Berlin, ping).' });
  assert.deepEqual(nextReply(script, { prompt: prompt('Show people'), toolResults: [] }, ['read_file']),
    { kind: 'text', text: 'The script calls xos_schema, but the request offers only: read_file.' });
  assert.deepEqual(nextReply(script, { prompt: prompt('ping'), toolResults: ['pong'] }, offered), { kind: 'text', text: 'The script ends here.' });
});
