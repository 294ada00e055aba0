// The schema rule as McpSession keeps it (src/mcp/session.ts) and preconditions.ts answers it:
// in an MCP session per conversation (unchanged), and for a request without a session through
// the handle xos_schema returns or the conversation the request names, with a refusal that
// says what to call next for a missing, unknown, expired and foreign handle.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkflowHandles } from '../../src/mcp/handles.ts';
import { unmetPrecondition } from '../../src/mcp/preconditions.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { CONVERSATION_META_KEY, McpSession } from '../../src/mcp/session.ts';
import { queryTool } from '../../src/mcp/tools/query.ts';
import { uiSaveTool } from '../../src/mcp/tools/uiSave.ts';
import { systemStatusTool } from '../../src/mcp/tools/systemStatus.ts';

const HOUR = 60 * 60 * 1000;
const noDeps = {} as XosDeps;
const chat = (conversation: string) => ({ [CONVERSATION_META_KEY]: conversation });

/** A request without an MCP session from `client`, as the server builds it per request. */
function request(handles: WorkflowHandles, client = 'claude-ai via http'): McpSession {
  return new McpSession({ handles, client, credential: 'bearer token sha256:test' }, XOS_TOOL_NAMES);
}

const missing = (tool: string) => `Call xos_schema first, then pass the handle it returns as \`handle\` to ${tool} `
  + `(this client has no MCP session, so XOS cannot remember the schema between calls). Then call ${tool} again.`;

describe('with an MCP session (as before)', () => {
  test('the schema rule per session and per conversation, with the same words as before', () => {
    const session = new McpSession('s1', XOS_TOOL_NAMES);
    assert.equal(session.sessionless, false);
    assert.equal(session.id, 's1');
    assert.equal(unmetPrecondition(queryTool, noDeps, session.forCall(undefined)),
      'Call xos_schema first: xos_query needs the schema loaded in this session (contexts, list_fields, prompts). Then call xos_query again.');
    assert.equal(unmetPrecondition(queryTool, noDeps, session.forCall(chat('a'))),
      'Call xos_schema first: xos_query needs the schema loaded in this conversation (contexts, list_fields, prompts). Then call xos_query again.');
    const handle = session.forCall(chat('a')).markSchemaLoaded();
    assert.match(handle, /^xos_h_/, 'xos_schema returns a handle in a session too');
    assert.equal(unmetPrecondition(queryTool, noDeps, session.forCall(chat('a'))), undefined, 'no handle needed in a session');
    assert.equal(session.forCall(chat('b')).schemaLoaded, false);
    assert.equal(session.forCall(chat('b'), XOS_TOOL_NAMES, { handle }).schemaLoaded, false, 'a handle does not carry one chat\'s schema into another');
    assert.equal(session.forCall(undefined).schemaLoaded, false);
  });

  test('two sessions share nothing', () => {
    const one = new McpSession('one', XOS_TOOL_NAMES);
    one.forCall(undefined).markSchemaLoaded();
    assert.equal(one.forCall(undefined).schemaLoaded, true);
    assert.equal(new McpSession('two', XOS_TOOL_NAMES).forCall(undefined).schemaLoaded, false);
  });
});

describe('without an MCP session', () => {
  test('a data tool is refused until xos_schema\'s handle is passed; then it may run', () => {
    const handles = new WorkflowHandles();
    const first = request(handles).forCall(undefined, XOS_TOOL_NAMES, { context: 'person_list' });
    assert.equal(first.sessionless, true);
    assert.equal(first.id, undefined);
    assert.equal(unmetPrecondition(queryTool, noDeps, first), missing('xos_query'));
    assert.equal(unmetPrecondition(uiSaveTool, noDeps, request(handles).forCall(undefined, XOS_TOOL_NAMES, {})), missing('xos_ui_save'));

    const handle = request(handles).forCall(undefined).markSchemaLoaded();
    // Each request is a new McpSession: only the handle connects them.
    assert.equal(unmetPrecondition(queryTool, noDeps, request(handles).forCall(undefined, XOS_TOOL_NAMES, { handle })), undefined);
    assert.equal(unmetPrecondition(queryTool, noDeps, request(handles).forCall(undefined, XOS_TOOL_NAMES, {})), missing('xos_query'));
    assert.equal(unmetPrecondition(queryTool, noDeps, request(handles).forCall(undefined, XOS_TOOL_NAMES, { handle: '' })), missing('xos_query'));
  });

  test('a handle another client got is foreign', () => {
    const handles = new WorkflowHandles();
    const handle = request(handles, 'claude-ai via http').forCall(undefined).markSchemaLoaded();
    const other = request(handles, 'other-agent via http').forCall(undefined, XOS_TOOL_NAMES, { handle });
    assert.equal(other.schemaLoaded, false);
    assert.equal(unmetPrecondition(queryTool, noDeps, other),
      'This handle belongs to another client or conversation: call xos_schema in this conversation and pass the handle it returns as `handle` to xos_query. Then call xos_query again.');
  });

  test('a handle from before a restart is unknown; one unused too long has expired', () => {
    const handle = request(new WorkflowHandles()).forCall(undefined).markSchemaLoaded();
    const restarted = request(new WorkflowHandles()).forCall(undefined, XOS_TOOL_NAMES, { handle });
    assert.equal(unmetPrecondition(queryTool, noDeps, restarted),
      'XOS does not know this handle (XOS was restarted since, or the handle was changed): call xos_schema again and pass the handle it returns as `handle` to xos_query. Then call xos_query again.');

    let now = 0;
    const handles = new WorkflowHandles({ now: () => now });
    const old = request(handles).forCall(undefined).markSchemaLoaded();
    now += 9 * HOUR;
    assert.equal(unmetPrecondition(queryTool, noDeps, request(handles).forCall(undefined, XOS_TOOL_NAMES, { handle: old })),
      'This handle expired (it is older than XOS keeps handles): call xos_schema again and pass the handle it returns as `handle` to xos_query. Then call xos_query again.');
  });

  test('a request that names its conversation needs no handle once that conversation loaded the schema; another conversation does', () => {
    const handles = new WorkflowHandles();
    const handle = request(handles, 'vscode via http').forCall(chat('a')).markSchemaLoaded();
    assert.equal(request(handles, 'vscode via http').forCall(chat('a'), XOS_TOOL_NAMES, {}).schemaLoaded, true);
    assert.equal(request(handles, 'vscode via http').forCall(chat('a'), XOS_TOOL_NAMES, { handle }).schemaLoaded, true);
    const otherChat = request(handles, 'vscode via http').forCall(chat('b'), XOS_TOOL_NAMES, { handle });
    assert.equal(otherChat.schemaLoaded, false);
    assert.match(unmetPrecondition(queryTool, noDeps, otherChat)!, /^This handle belongs to another client or conversation/);
    assert.equal(request(handles, 'other via http').forCall(chat('a')).schemaLoaded, false, 'the same conversation id from another client');
  });

  test('xos_system_status tells whether the calling conversation loaded the schema', async () => {
    const handles = new WorkflowHandles();
    const status = async (session: McpSession) => {
      const deps = {
        client: { ast: () => ({ app: 'crm', locales: ['en'] }), status: async () => ({ kind: 'sqlite', description: '', ok: true, latency_ms: 1 }) },
        board: { snapshot: () => ({}) },
      } as unknown as XosDeps;
      const result = await systemStatusTool.handler({}, deps, session, new AbortController().signal);
      return (result.structuredContent as { schema_loaded: boolean }).schema_loaded;
    };
    assert.equal(await status(request(handles, 'vscode via http').forCall(chat('a'))), false);
    request(handles, 'vscode via http').forCall(chat('a')).markSchemaLoaded();
    assert.equal(await status(request(handles, 'vscode via http').forCall(chat('a'))), true);
    assert.equal(await status(request(handles, 'vscode via http').forCall(chat('b'))), false);
  });
});
