// One XOS app with stored approvals over a real backend, for the tests of the person's decisions:
// the Board (its review, its form), the approval desk, the blocking question (answered as the test
// scripts it), and the agent's calls with an MCP session and without one (a request of protocol
// 2026-07-28's kind: a server and session per request, nothing remembered between them).
import { headlessApp } from './headlessApp.ts';
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { XosApp } from '../../src/app/xosApp.ts';
import type { ApprovalStore } from '../../src/core/approvals.ts';
import type { AskedQuestion } from '../../src/board/confirmer.ts';
import type { BoardSurface } from '../../src/board/controller.ts';
import { translator } from '../../src/board/texts.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { WorkflowHandles } from '../../src/mcp/handles.ts';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { createXosMcpServer } from '../../src/mcp/server.ts';
import { McpSession } from '../../src/mcp/session.ts';

export interface Reply { readonly text: string; readonly isError: boolean }

/** The blocking question's person: answers with the button the test set (undefined closes it), and keeps what was asked. */
export interface ScriptedQuestions {
  readonly asked: AskedQuestion[];
  /** The next answers, oldest first: 'save' / 'discard' clicks the button of that name; undefined closes the question. */
  answers: Array<'save' | 'discard' | undefined>;
}

export interface DecisionApp {
  readonly app: XosApp;
  readonly questions: ScriptedQuestions;
  /** A call without an MCP session (a fresh server and session, as a request of protocol 2026-07-28 gets). */
  sessionless(tool: string, args?: Record<string, unknown>): Promise<Reply>;
  /** A call in one MCP session (kept for the app's life). */
  withSession(tool: string, args?: Record<string, unknown>): Promise<Reply>;
  close(): Promise<void>;
}

const text = (result: CallToolResult): Reply => ({ text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), isError: result.isError === true });

export async function startDecisionApp(client: XosClient, store: ApprovalStore & { close(): void }, options: { readonly caller?: string; readonly backend?: string; readonly surface?: BoardSurface } = {}): Promise<DecisionApp> {
  const t = translator('en');
  const caller = options.caller ?? 'agent via http';
  const questions: ScriptedQuestions = { asked: [], answers: [] };
  const app = headlessApp({
    client,
    ...(options.surface ? { surface: options.surface } : {}),
    ask: async (question) => {
      questions.asked.push(question);
      const answer = questions.answers.shift();
      return answer === 'save' ? t('Save') : answer === 'discard' ? t('Discard') : undefined;
    },
    storedApprovals: {
      store,
      backend: () => options.backend ?? 'sqlite::memory:',
      person: () => 'anna',
      warn: (warning) => {
        throw new Error(warning);
      },
    },
  });
  const handles = new WorkflowHandles();
  const connect = async (session: McpSession) => {
    const server = createXosMcpServer(() => app.deps(), session);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new Client({ name: caller, version: '1' });
    await mcp.connect(clientSide);
    return { mcp, close: async () => { await mcp.close(); await server.close(); } };
  };
  let session: Awaited<ReturnType<typeof connect>> | undefined;
  let handle: string | undefined;
  return {
    app,
    questions,
    async sessionless(tool, args = {}) {
      const call = async (name: string, callArgs: Record<string, unknown>) => {
        const one = await connect(new McpSession({ handles, client: caller, credential: 'bearer token sha256:decision-app' }, XOS_TOOL_NAMES));
        try {
          return text(await one.mcp.callTool({ name, arguments: callArgs }) as CallToolResult);
        } finally {
          await one.close();
        }
      };
      handle ??= (JSON.parse((await call('xos_schema', {})).text) as { handle: string }).handle;
      return call(tool, { handle, ...args });
    },
    async withSession(tool, args = {}) {
      if (!session) {
        session = await connect(new McpSession('decision-session', XOS_TOOL_NAMES));
        await session.mcp.callTool({ name: 'xos_schema', arguments: {} });
      }
      return text(await session.mcp.callTool({ name: tool, arguments: args }) as CallToolResult);
    },
    async close() {
      await session?.close();
      app.dispose();
    },
  };
}
