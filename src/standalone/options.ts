// xos-mcp's command line: options, their defaults and the mistakes refused with what to do.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { MailSecurity } from '../mail/smtp.ts';
import { namesFlag, readSecretFile } from '../net/secretFile.ts';
import type { XosMcpOptions } from './xosMcp.ts';
import { cleanPersonName, MAX_PERSON_NAME } from '../backend/people/personName.ts';
import { DEFAULT_MAX_PENDING } from '../core/approvals.ts';

export const USAGE = `Usage: xos-mcp [--ast <file>] [--dsn <dsn> | --server <url>] [--http [--port N] [--token-file F]]
              [--board-port N] [--locale de] [--mail-host H --mail-from A ...]

  The nine XOS tools over MCP. The person sees the agent's work on the XOS Board in a
  browser (the link is printed at the start, on stderr) and confirms every save and
  send there.

  --ast         the app's AST (JSON or YAML); without it: the bundled demo CRM
  --dsn         sqlite:<path> | postgres://user@host:port/db (password: PGPASSWORD)
                default: a SQLite file with the demo records in ${defaultDataDir()}
  --server      a running xos-server instead (e.g. http://127.0.0.1:4000;
                its token: XOS_SERVER_TOKEN, which also names the person)
  --person      who uses this xos-mcp (e.g. anna): the History and the audit
                trail name them (the embedded backend only); where the app has
                roles, a user of the team, served with their role
  --http        serve MCP as Streamable HTTP on 127.0.0.1 instead of stdio;
                clients send Authorization: Bearer <token>, the token from XOS_MCP_TOKEN
                or --token-file
  --token-file  a file holding the MCP token, readable by you only (chmod 600 <file>)
  --port        the MCP endpoint's port with --http (default 7401; 0: any free one)
  --board-port  the Board's port (default: any free one; the link is printed and
                written to ${join(defaultDataDir(), 'board-link')})
  --locale      the Board's language (default: the app's first)
  --confirm-timeout  seconds a question on the Board waits (default 300)
  --mail-host, --mail-port, --mail-security starttls|tls|none, --mail-user, --mail-from
                the SMTP server for xos_mail_send (password: XOS_MAIL_PASSWORD)
  --mail-undo   seconds a confirmed mail waits, with Undo on the Board (default 10)
  --approval-seconds  seconds a request stored as a pending approval (an agent without
                an MCP session) waits for the decision on the Board (default 900)
  --pending-approvals  requests of one credential (this xos-mcp over stdio, or its HTTP
                token) that may wait for the decision at once (default 20)

  XOS_BOARD_KEY  a fixed key for the Board link (at least 32 characters of A-Z a-z 0-9 - _,
                 e.g. openssl rand -hex 32); without it every start has a new one. Whoever
                 has the key can confirm saves and sends; open a link with a fixed key only
                 while xos-mcp is running (whatever holds the port then gets the link).
`;

/** Most requests of one credential an xos-mcp lets wait at once, whatever its option says. */
const MAX_PENDING_APPROVALS = 1_000;

export class UsageError extends Error {}

function defaultDataDir(): string {
  return join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'xos-mcp');
}

/** The person's language from LC_ALL / LC_MESSAGES / LANG (`de_DE.UTF-8` → `de-DE`); the app's first when unset. */
function localeOfEnvironment(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.LC_ALL || env.LC_MESSAGES || env.LANG;
  const tag = raw?.split('.')[0].replace('_', '-');
  return tag && tag !== 'C' && tag !== 'POSIX' ? tag : undefined;
}

function intOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} needs a whole number (got "${value}")`);
  return n;
}

/** A key is only as strong as it is long: a handshake proof lets anyone on this machine try guesses offline. */
const BOARD_KEY = /^[A-Za-z0-9_-]{32,256}$/;

/** The MCP token from a file only its owner can read (a token on the command line is visible to every local user). */
function tokenFromFile(path: string): string {
  const read = readSecretFile(path, '--token-file');
  if (typeof read !== 'string') throw new UsageError(read.problem);
  return read;
}

function tokenOnCommandLine(): UsageError {
  return new UsageError('--token would show the MCP token to every user of this machine (command lines are public): set XOS_MCP_TOKEN, or put the token in a file only you can read (chmod 600 <file>) and pass --token-file <file>');
}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): XosMcpOptions | undefined {
  // Before parsing, so `--token` with or without a value gets the same answer.
  if (namesFlag(argv, '--token')) throw tokenOnCommandLine();
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ast: { type: 'string' }, dsn: { type: 'string' }, server: { type: 'string' }, http: { type: 'boolean' },
      port: { type: 'string' }, 'token-file': { type: 'string' }, 'board-port': { type: 'string' }, locale: { type: 'string' },
      'confirm-timeout': { type: 'string' }, person: { type: 'string' },
      'mail-host': { type: 'string' }, 'mail-port': { type: 'string' }, 'mail-security': { type: 'string' },
      'mail-user': { type: 'string' }, 'mail-from': { type: 'string' }, 'mail-undo': { type: 'string' },
      'approval-seconds': { type: 'string' }, 'pending-approvals': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  if (values.server && (values.dsn || values.ast)) throw new UsageError('--server uses the AST and database of that server: leave out --ast and --dsn');
  if (values.dsn && /^postgres(ql)?:\/\/[^/@]*:[^/@]*@/.test(values.dsn)) {
    throw new UsageError('keep the database password out of --dsn (command lines are visible to other programs): set PGPASSWORD instead');
  }
  if (values.person !== undefined && values.server) throw new UsageError('--person is for the embedded backend: with --server, the token in XOS_SERVER_TOKEN names the person');
  const person = cleanPersonName(values.person);
  if (values.person !== undefined && person === undefined) throw new UsageError(`--person needs a name of 1 to ${MAX_PERSON_NAME} characters on one line (got "${values.person}")`);
  const security = values['mail-security'] ?? 'starttls';
  if (!['starttls', 'tls', 'none'].includes(security)) throw new UsageError(`--mail-security is starttls, tls or none (got "${security}")`);
  if (values['mail-host'] && !values['mail-from']) throw new UsageError('--mail-host needs --mail-from (the sender address)');
  const token = values['token-file'] !== undefined ? tokenFromFile(values['token-file']) : env.XOS_MCP_TOKEN || undefined;
  if (values.http && !token) throw new UsageError('--http needs a token for the clients: set XOS_MCP_TOKEN, or pass --token-file <file> (a file only you can read: chmod 600 <file>)');
  const boardKey = env.XOS_BOARD_KEY || undefined;
  if (boardKey !== undefined && !BOARD_KEY.test(boardKey)) {
    throw new UsageError('XOS_BOARD_KEY must be at least 32 characters of A-Z, a-z, 0-9, - and _ (make one with: openssl rand -hex 32)');
  }
  const approvalSeconds = intOption('approval-seconds', values['approval-seconds'], 900);
  if (approvalSeconds < 1) throw new UsageError('--approval-seconds needs at least 1 (a request that expires at once could never be decided)');
  const pendingApprovals = intOption('pending-approvals', values['pending-approvals'], DEFAULT_MAX_PENDING);
  if (pendingApprovals < 1 || pendingApprovals > MAX_PENDING_APPROVALS) throw new UsageError(`--pending-approvals is 1 to ${MAX_PENDING_APPROVALS} (got ${pendingApprovals})`);
  const dataDir = defaultDataDir();
  return {
    ast: values.ast,
    dsn: values.dsn,
    server: values.server,
    serverToken: env.XOS_SERVER_TOKEN || undefined,
    ...(person !== undefined ? { person } : {}),
    transport: values.http ? 'http' : 'stdio',
    port: intOption('port', values.port, 7401),
    token,
    boardPort: intOption('board-port', values['board-port'], 0),
    boardKey,
    locale: values.locale ?? localeOfEnvironment(env),
    confirmTimeoutSeconds: intOption('confirm-timeout', values['confirm-timeout'], 300),
    mail: values['mail-host'] ? {
      host: values['mail-host'],
      port: intOption('mail-port', values['mail-port'], security === 'tls' ? 465 : 587),
      security: security as MailSecurity,
      user: values['mail-user'],
      from: values['mail-from']!,
      password: env.XOS_MAIL_PASSWORD || undefined,
    } : undefined,
    mailUndoSeconds: Math.min(300, intOption('mail-undo', values['mail-undo'], 10)),
    approvalSeconds,
    pendingApprovals,
    dataDir,
    exportDir: process.cwd(),
    log: (line) => process.stderr.write(`[xos-mcp] ${line}\n`),
  };
}

