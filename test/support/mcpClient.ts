// SDK MCP clients for the tests. In-process: connected to an XOS MCP server (the same server
// factory the loopback endpoint uses), for suites that make many calls, no HTTP in between.
// Over HTTP (the loopback endpoint) or stdio (what xos-mcp serves, in this process or the built
// CLI started as a child), in either protocol era:
// `legacy` is the 2025-era initialize handshake (the SDK's default, what VS Code speaks),
// `modern` is protocol revision 2026-07-28 (per request, no session).
import { PassThrough } from 'node:stream';
import { Client, InMemoryTransport, ReadBuffer, serializeMessage, StreamableHTTPClientTransport, type JSONRPCMessage, type ProtocolEra, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { createXosMcpServer } from '../../src/mcp/server.ts';
import { McpSession } from '../../src/mcp/session.ts';
import type { StdioStreams } from '../../src/mcp/stdio.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';

export type { ProtocolEra };

/** The revision a `modern` client pins. */
export const MODERN_REVISION = '2026-07-28';
export const ERAS: readonly ProtocolEra[] = ['legacy', 'modern'];

export interface Reply { readonly text: string; readonly isError: boolean }

export interface McpConnection {
  readonly client: Client;
  /** Calls a tool (with `_meta` when given) and returns its text and whether it is an error. */
  call(name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Reply>;
  close(): Promise<void>;
}

/** A connection to an in-process server (connectInMemory). */
export type InMemoryMcp = McpConnection;

/** How a client picks its era: one of them (the default handshake, or pinned to 2026-07-28, no fallback), or `auto` (the newest the server speaks). */
export type Negotiation = ProtocolEra | 'auto';

export function eraClient(name: string, era: Negotiation): Client {
  if (era === 'legacy') return new Client({ name, version: '1.0.0' });
  return new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: era === 'modern' ? { pin: MODERN_REVISION } : 'auto' } });
}

function connection(client: Client, close: () => Promise<void> = () => client.close()): McpConnection {
  return {
    client,
    async call(tool, args = {}, meta) {
      const result = await client.callTool({ name: tool, arguments: args, ...(meta ? { _meta: meta } : {}) });
      return { text: (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join(''), isError: result.isError === true };
    },
    close,
  };
}

export async function connectInMemory(deps: XosDeps | (() => XosDeps), name = 'test'): Promise<McpConnection> {
  const server = createXosMcpServer(typeof deps === 'function' ? deps : () => deps, new McpSession(name, XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1' });
  await client.connect(clientSide);
  return connection(client);
}

/** A client of the loopback endpoint at `url`, in `era`. */
export async function connectHttp(url: string, token: string, era: Negotiation, name = 'test'): Promise<McpConnection> {
  const client = eraClient(name, era);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return connection(client);
}

/** A client of a stdio MCP server the client starts itself (the built xos-mcp: `node bin/xos-mcp.mjs`), its stderr ignored. */
export async function connectCommand(command: string, args: readonly string[], env: Record<string, string>, era: Negotiation, name = 'test'): Promise<McpConnection> {
  const client = eraClient(name, era);
  await client.connect(new StdioClientTransport({ command, args: [...args], env: { ...getDefaultEnvironment(), ...env }, stderr: 'ignore' }));
  return connection(client);
}

/**
 * A client of an MCP stdio server running in this process: `serve` gets the server's ends of
 * two pipes (what would be xos-mcp's stdin and stdout) and returns how to stop it; `prepare` sets the
 * client up before it connects.
 */
export async function connectStdio(serve: (streams: StdioStreams) => { close(): Promise<void> }, era: Negotiation, name = 'test',
  prepare?: (client: Client) => void): Promise<McpConnection> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const served = serve({ stdin: toServer, stdout: toClient });
  const client = eraClient(name, era);
  // Capabilities and handlers (elicitation, say) are set before the opening exchange.
  prepare?.(client);
  await client.connect(new PipeClientTransport(toClient, toServer));
  return connection(client, async () => {
    await client.close();
    await served.close();
  });
}

/** The client's side of a stdio connection over in-process pipes: newline-delimited JSON-RPC. */
class PipeClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private readonly input: PassThrough;
  private readonly output: PassThrough;
  private closed = false;

  constructor(input: PassThrough, output: PassThrough) {
    this.input = input;
    this.output = output;
  }

  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    this.input.on('end', () => void this.close());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.output.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.removeAllListeners('data');
    this.output.end();
    this.onclose?.();
  }
}
