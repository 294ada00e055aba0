// xos-mcp started over stdio as an MCP client starts it (its own data folder, the Board on a free
// port), for the browser Board's tests: resolves once it printed the Board's link.
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';

export interface StartedXosMcp {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** xos-mcp's process id (to stop it hard, as a crash would). */
  readonly pid: number;
  /** The Board's link as printed, with its key in the fragment. */
  readonly link: string;
  /** Everything xos-mcp wrote to stderr so far. */
  log(): string;
}

export interface XosMcpOptions {
  /** The MCP client's name. */
  readonly name: string;
  /** The client to connect (one pinned to a protocol revision, say); a 2025-era client named `name` when absent. */
  readonly client?: Client;
  /** Its data folder (XDG_DATA_HOME) and working directory. */
  readonly data: string;
  /** Arguments after the defaults (`--confirm-timeout 60 --locale en`); the Board port is free unless given. */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const LINK = /Open the XOS Board: (\S+)/;

export async function startXosMcp(options: XosMcpOptions): Promise<StartedXosMcp> {
  let log = '';
  const args = options.args ?? ['--board-port', '0'];
  const transport = new StdioClientTransport({
    command: join(repoRoot, 'node_modules', '.bin', 'node'),
    args: [join(repoRoot, 'bin', 'xos-mcp.mjs'), '--confirm-timeout', '60', '--locale', 'en', ...args],
    env: { ...process.env as Record<string, string>, XDG_DATA_HOME: options.data, ...options.env },
    cwd: options.data,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString('utf8'); });
  const client = options.client ?? new Client({ name: options.name, version: '1.0.0' });
  await client.connect(transport);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let link = LINK.exec(log)?.[1];
  while (!link) {
    if (Date.now() > deadline) throw new Error(`xos-mcp printed no Board link; it said:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    link = LINK.exec(log)?.[1];
  }
  return { client, transport, pid: transport.pid!, link, log: () => log };
}
