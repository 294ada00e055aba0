// xos-mcp: the XOS tools for any MCP client, with the Board in a browser.
//   xos-mcp [--ast app.json] [--dsn …] [--server URL] [--http --port N] [--board-port N]
import { AstError } from '../ast/load.ts';
import { parseOptions, UsageError, USAGE } from './options.ts';
import { startXosMcp } from './xosMcp.ts';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (!options) {
    process.stdout.write(USAGE);
    return;
  }
  let running: Awaited<ReturnType<typeof startXosMcp>>;
  try {
    running = await startXosMcp(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`a port is in use (Board ${options.boardPort}${options.transport === 'http' ? `, MCP ${options.port}` : ''}): is xos-mcp already running? Pick others with --board-port N / --port N (0: any free one)`);
    }
    throw error;
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A client that started xos-mcp over stdio ends it by closing stdin.
  if (options.transport === 'stdio') process.stdin.on('end', stop);
}

main().catch((error: unknown) => {
  if (error instanceof AstError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const code = (error as { code?: string }).code;
  if (error instanceof UsageError || code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    process.stderr.write(`xos-mcp: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  process.stderr.write(`xos-mcp: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
