// xos_system_status: what the Board shows, the tools on offer and the data source's health.
import { defineTool } from '../ports.ts';
import { systemStatusOutput } from '../outputs.ts';
import { okData } from '../result.ts';
import { appName } from '../../ast/appName.ts';
import { dataText } from '../../text/foreignText.ts';
import { AGENT_LABEL_MAX } from '../schemaReply.ts';

export const systemStatusTool = defineTool({
  name: 'xos_system_status',
  title: 'XOS system status',
  description: 'Returns the XOS system status as JSON: the active context on the Board, the available tools, the data source (DSN) status with its latency, the app and version of the loaded AST, the number of open MCP sessions, and (outside VS Code) the address of the Board.',
  inputSchema: {},
  outputSchema: systemStatusOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(_args, deps, session) {
    const ast = deps.client.ast();
    const board = deps.board.snapshot();
    const status = {
      active_context: board.context ?? null,
      board: board.kind ?? null,
      tools: [...session.tools],
      dsn: await deps.client.status(),
      app: { name: ast.app, label: dataText(appName(ast, deps.locale), AGENT_LABEL_MAX), version: ast.version ?? null },
      schema_loaded: session.schemaLoaded,
      sessions: deps.sessionCount?.() ?? 1,
      ...(deps.boardUrl?.() ? { board_url: deps.boardUrl() } : {}),
    };
    return okData(status);
  },
});
