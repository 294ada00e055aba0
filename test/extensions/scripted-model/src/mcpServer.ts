// A tiny stdio MCP server for chat tests: `ping` is read-only (runs without asking), `stamp`
// is not, so the chat asks for confirmation first.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const server = new McpServer({ name: 'xos-test-mcp', version: '0.0.1' });
server.registerTool('ping', {
  title: 'Ping',
  description: 'Answers with pong and the given text.',
  inputSchema: z.object({ text: z.string().optional() }),
  annotations: { readOnlyHint: true },
}, async ({ text }) => ({ content: [{ type: 'text', text: `pong${text ? ` ${text}` : ''} from the XOS test MCP server` }] }));
server.registerTool('stamp', {
  title: 'Stamp',
  description: 'Stamps the given text (a change, so the chat asks first).',
  inputSchema: z.object({ text: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false },
}, async ({ text }) => ({ content: [{ type: 'text', text: `stamped ${text}` }] }));

await server.connect(new StdioServerTransport());
