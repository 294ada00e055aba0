// xos-server: serves an XOS app over HTTP (DESIGN §4); `xos-server init` writes an AST for a
// database the person already has (docs/own-database.md).
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import type { Ast } from '../ast/schema.ts';
import { appName } from '../ast/appName.ts';
import { exampleQuery } from '../ast/view.ts';
import { AstError, loadAstFile } from '../ast/load.ts';
import { startBackend, type Backend } from './backend.ts';
import { demoApp } from './demo.ts';
import { DEFAULT_MAX_BODY, isLoopbackHost, startHttpServer, type RunningHttpServer } from './http.ts';
import { redactDsn } from './dsn.ts';
import { runInit } from './introspect/init.ts';
import { launchCommand } from './launchCommand.ts';
import { runUsers, type UsersAction } from './people/usersCommand.ts';
import { UsersError } from './people/users.ts';
import { cachedPersonLookup, usersOf } from './people/tokens.ts';
import { namesFlag, readSecretFile } from '../net/secretFile.ts';
import { DEFAULT_NAME_CLAIMS, issuerProblem, oidcPersonLookup, type OidcSettings } from './people/oidc.ts';

const USAGE = `Usage: xos-server [--ast <file>] [--dsn <dsn>] [--port N] [--host 127.0.0.1]
                  [--token-file F] [--frontend-token-file F] [--seed[=N]] [--max-body BYTES]
                  [--statement-timeout MS] [--insecure-no-token]
                  [--oidc-issuer URL --oidc-audience AUD [--oidc-claim C]]

  --ast       the app's AST (JSON or YAML), or set XOS_AST; without either: the
              bundled demo CRM
  --dsn       sqlite:<path> | sqlite::memory: | postgres://user:pass@host:port/db,
              or set XOS_DSN, which keeps the password out of the process list
              (default sqlite:./xos.db)
  --port      TCP port (default 4000; 0 picks a free one)
  --host      address to bind (default 127.0.0.1)
  --token-file  a file only you can read (chmod 600) holding the token that
              requests need as "Authorization: Bearer <token>" (or set XOS_TOKEN);
              needed for any --host other than loopback. Never on the command
              line: every user of the machine sees it there
  --frontend-token-file  a file (chmod 600) holding the token of XOS's own front
              ends (or set XOS_FRONTEND_TOKEN; at least 16 characters, not the
              token): give it to the VS Code
              extension ("XOS: Set Server Token") and xos-mcp (XOS_SERVER_TOKEN).
              Only requests with it are recorded in the audit trail as the
              agent or the person, with their approval; all others as api
  --insecure-no-token  serve a non-loopback --host without a token (anyone who
              reaches the port can read and change all data)
  --seed      load the AST's data section into empty tables
  --seed=N    instead generate N plausible records per entity
  --max-body  largest accepted request body in bytes (default ${DEFAULT_MAX_BODY})
  --statement-timeout  per-statement limit in ms (default 10000; on SQLite: lock wait)
  --oidc-issuer  let people sign in with your identity provider (OpenID Connect):
              a bearer that is a JWT of this issuer (https; http only on this
              machine) names the person; they must be added with
              "users add <name> --oidc", and their role is the one given there
  --oidc-audience  the "aud" those tokens carry (your API's identifier or client id)
  --oidc-claim  the claim that holds the person's name (default: preferred_username,
              else email, else sub)

       xos-server init --from <dsn> [--schema public] [--out xos.json]

  Reads the tables of a database you already have and writes an AST for them
  (docs/own-database.md); the database is only read. When the --out file exists
  it is not overwritten: init says what the database has that the file lacks.
  --from      sqlite:<path> | postgres://user@host:port/db (password in the DSN
              or in PGPASSWORD)
  --schema    PostgreSQL schema to read (default public)
  --out       the AST file to write (default ./xos.json)

       xos-server users add <name> [--role R] [--oidc] | list | revoke <name> | role <name> <R>
                  [--ast <file>] [--dsn <dsn>]

  The team's people on the app's database (the same --ast and --dsn, or XOS_AST
  and XOS_DSN, as serving).
  add prints the person's token once; they send it as "Authorization: Bearer
  <token>" (VS Code: "XOS: Set Server Token"), and their writes are recorded in
  the audit trail in their name; with --oidc no token is made: they sign in with
  the identity provider of --oidc-issuer. A role must be one of the AST's "roles".
  list shows names, roles and who is revoked (never a token); revoke refuses a
  token on every instance within 2 s; role gives someone another role.
  Names: 1-64 letters, digits, ".", "_" or "-".
`;

class UsageError extends Error {}

type SettingVariable = 'XOS_AST' | 'XOS_DSN';

/**
 * A flag's value, else its environment variable; an empty one counts as not given. A container or
 * service passes the DSN here (its tokens only here or in a file): the process list and `docker inspect`'s command show argv.
 */
function flagOrEnv(flag: string | undefined, variable: SettingVariable): string | undefined {
  return flag || process.env[variable] || undefined;
}

const DEFAULT_DSN = 'sqlite:./xos.db';

/** A token from its file (only its owner may read it), else its environment variable; empty counts as not given. */
function secret(file: string | undefined, flag: string, variable: 'XOS_TOKEN' | 'XOS_FRONTEND_TOKEN'): string | undefined {
  if (file === undefined) return process.env[variable] || undefined;
  const read = readSecretFile(file, flag);
  if (typeof read !== 'string') throw new UsageError(read.problem);
  return read;
}

function intOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} needs a whole number (got "${value}")`);
  return n;
}

async function init(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { from: { type: 'string' }, schema: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) { process.stdout.write(USAGE); return; }
  if (!values.from) throw new UsageError('init needs --from <dsn>: the database to read');
  if (values.schema !== undefined && values.from.startsWith('sqlite:')) throw new UsageError('--schema is for PostgreSQL; a SQLite file has one schema');
  await runInit({ from: values.from, schema: values.schema, out: values.out ?? 'xos.json', command: launchCommand('xos-server') }, (...lines) => console.log(lines.join('\n')));
}

async function users(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { ast: { type: 'string' }, dsn: { type: 'string' }, role: { type: 'string' }, oidc: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) { process.stdout.write(USAGE); return; }
  const [command, name, role] = positionals;
  const needs = (count: number, form: string) => {
    if (positionals.length !== count) throw new UsageError(`use: xos-server users ${form}`);
  };
  let action: UsersAction;
  switch (command) {
    case 'add': needs(2, 'add <name> [--role R] [--oidc]'); action = { kind: 'add', name, ...(values.role !== undefined ? { role: values.role } : {}), ...(values.oidc ? { oidc: true } : {}) }; break;
    case 'list': needs(1, 'list'); action = { kind: 'list' }; break;
    case 'revoke': needs(2, 'revoke <name>'); action = { kind: 'revoke', name }; break;
    case 'role': needs(3, 'role <name> <role>'); action = { kind: 'role', name, role }; break;
    default: throw new UsageError(`users needs add, list, revoke or role${command === undefined ? '' : ` (got "${command}")`}`);
  }
  if (values.role !== undefined && command !== 'add') throw new UsageError('--role is for users add; use: xos-server users role <name> <role>');
  if (values.oidc && command !== 'add') throw new UsageError('--oidc is for users add: how a new user signs in');
  const astFile = flagOrEnv(values.ast, 'XOS_AST');
  const ast: Ast = astFile ? await loadAstFile(resolve(astFile)) : demoApp();
  await runUsers(ast, flagOrEnv(values.dsn, 'XOS_DSN') ?? DEFAULT_DSN, action, (line) => console.log(line));
}

/** The OpenID Connect flags, checked before anything is opened; undefined without --oidc-issuer. */
function oidcSettings(issuer: string | undefined, audience: string | undefined, claim: string | undefined): OidcSettings | undefined {
  if (issuer === undefined) {
    if (audience !== undefined || claim !== undefined) throw new UsageError('--oidc-audience and --oidc-claim need --oidc-issuer: the identity provider whose tokens to accept');
    return undefined;
  }
  const problem = issuerProblem(issuer);
  if (problem) throw new UsageError(problem);
  if (audience === undefined || audience.trim() === '') throw new UsageError('--oidc-issuer needs --oidc-audience: the "aud" of the tokens this server accepts (your API\'s identifier or client id at the identity provider)');
  if (claim !== undefined && !/^\S{1,200}$/.test(claim)) throw new UsageError(`--oidc-claim "${claim}" is not a claim name; give one like preferred_username or email`);
  return { issuer, audience, ...(claim !== undefined ? { claim } : {}) };
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'init') return init(argv.slice(1));
  if (argv[0] === 'users') return users(argv.slice(1));
  // Before parsing, so a token flag with or without a value gets the same answer.
  for (const [flag, variable] of [['--token', 'XOS_TOKEN'], ['--frontend-token', 'XOS_FRONTEND_TOKEN']] as const) {
    if (namesFlag(argv, flag)) {
      throw new UsageError(`${flag} would show the token to every user of this machine (command lines are public): set ${variable}, or put the token in a file only you can read (chmod 600 <file>) and pass ${flag}-file <file>`);
    }
  }
  // `--seed` may stand alone or carry a number.
  const args = argv.map((a) => (a === '--seed' ? '--seed=data' : a));
  const { values } = parseArgs({
    args,
    options: {
      ast: { type: 'string' }, dsn: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' },
      'token-file': { type: 'string' }, 'frontend-token-file': { type: 'string' }, seed: { type: 'string' }, 'max-body': { type: 'string' },
      'statement-timeout': { type: 'string' }, 'insecure-no-token': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      'oidc-issuer': { type: 'string' }, 'oidc-audience': { type: 'string' }, 'oidc-claim': { type: 'string' },
    },
    strict: true,
  });
  if (values.help) { process.stdout.write(USAGE); return; }

  let seed: boolean | number | undefined;
  if (values.seed === 'data') seed = true;
  else if (values.seed !== undefined) {
    seed = intOption('seed', values.seed, 0);
    if (seed < 1) throw new UsageError('--seed=N needs N of at least 1');
  }
  const astFile = flagOrEnv(values.ast, 'XOS_AST');
  const ast: Ast = astFile ? await loadAstFile(resolve(astFile)) : demoApp();
  const dsn = flagOrEnv(values.dsn, 'XOS_DSN') ?? DEFAULT_DSN;
  const token = secret(values['token-file'], '--token-file', 'XOS_TOKEN');
  const frontendToken = secret(values['frontend-token-file'], '--frontend-token-file', 'XOS_FRONTEND_TOKEN');
  if (frontendToken !== undefined && frontendToken.length < 16) throw new UsageError('the front-end token needs at least 16 characters (XOS_FRONTEND_TOKEN or --frontend-token-file)');
  if (frontendToken !== undefined && frontendToken === token) {
    throw new UsageError('the front-end token must differ from the token: any client with it is recorded as the agent or the person');
  }
  const oidc = oidcSettings(values['oidc-issuer'], values['oidc-audience'], values['oidc-claim']);
  const host = values.host ?? '127.0.0.1';
  const open = !token && !isLoopbackHost(host.replace(/^\[(.*)\]$/, '$1'));
  // Checked before anything is opened or migrated: a refused start changes nothing.
  if (open && !values['insecure-no-token']) {
    throw new UsageError(`--host ${host} would serve reads and writes to the network without a token. Set XOS_TOKEN (or --token-file F), `
      + 'or keep the default --host 127.0.0.1; only on a network you trust, add --insecure-no-token');
  }

  const backend: Backend = await startBackend({
    ast, dsn, seed, statementTimeoutMs: intOption('statement-timeout', values['statement-timeout'], 10_000),
    onInternalError: (e) => console.error('[xos] internal error:', e),
  });
  // Person tokens (xos-server users) are looked up in the database every instance shares.
  const team = usersOf(backend.api.storage, backend.api.model);
  if (oidc && !team) {
    await backend.close();
    throw new UsageError(`--oidc-issuer needs the team's users, which the store of ${redactDsn(dsn)} does not keep`);
  }
  // Roles hold only where a request must name someone: without a token, a request with no bearer
  // would have every right, a person's role notwithstanding.
  if (!token && ast.roles && team && (oidc || (await team.list()).some((user) => !user.revokedAt))) {
    await backend.close();
    throw new UsageError(`this app gives its people roles (${oidc ? 'OpenID Connect sign-in' : 'users added with "xos-server users add"'}), but no token is set, so a request without one would have every right: `
      + 'set XOS_TOKEN (or --token-file F) to the administrator\'s token and start again');
  }
  let http: RunningHttpServer;
  try {
    http = await startHttpServer(backend.api, {
      host, port: intOption('port', values.port, 4000), token, frontendToken, insecureNoToken: open, ...(team ? { people: cachedPersonLookup(team) } : {}),
      ...(oidc && team ? { oidc: oidcPersonLookup(oidc, team) } : {}),
      maxBodyBytes: intOption('max-body', values['max-body'], DEFAULT_MAX_BODY), audit: backend.migration.audit,
    });
  } catch (e) {
    await backend.close();
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${values.port ?? 4000} is in use; pick another with --port N (0 picks a free one)`);
    throw e;
  }

  const seeded = Object.entries(backend.seeded).map(([e, n]) => `${e} ${n}`).join(', ');
  const lines = [
    `XOS server for app "${appName(ast)}"${astFile ? '' : ' (bundled demo)'} on ${redactDsn(dsn)}`,
    `  GraphQL  ${http.url}/graphql`,
    `  AST      ${http.url}/xos/ast`,
    `  Health   ${http.url}/healthz`,
  ];
  if (backend.migration.createdTables.length) lines.push(`  created tables: ${backend.migration.createdTables.join(', ')}`);
  if (backend.migration.addedColumns.length) lines.push(`  added columns: ${backend.migration.addedColumns.join(', ')}`);
  if (backend.migration.createdIndexes.length) lines.push(`  created sort indexes: ${backend.migration.createdIndexes.join(', ')}`);
  if (backend.migration.createdSearchIndexes.length) lines.push(`  created search indexes: ${backend.migration.createdSearchIndexes.join(', ')}`);
  if (seeded) lines.push(`  seeded: ${seeded}`);
  if (token) lines.push('  requests need: Authorization: Bearer <token>');
  if (oidc) lines.push(`  sign-in:  OpenID Connect tokens of ${oidc.issuer} for ${oidc.audience}, named by ${oidc.claim ?? DEFAULT_NAME_CLAIMS.join(' / ')}, for users added with --oidc`);
  if (!backend.migration.audit.kept) lines.push(`  audit trail: off — ${backend.migration.audit.reason ?? 'not kept'}`);
  else lines.push(frontendToken
    ? '  audit trail: agent and board writes only from XOS front ends with the front-end token; all others are recorded as api'
    : '  audit trail: every write through HTTP is recorded as api (set XOS_FRONTEND_TOKEN for XOS front ends)');
  if (open) {
    console.error([
      '',
      '!!! WARNING: xos-server listens on ' + `${host} WITHOUT A TOKEN (--insecure-no-token).`,
      '!!! Anyone who can reach this port can read, change and delete all data.',
      '!!! Set XOS_TOKEN (or --token-file F), or use --host 127.0.0.1.',
      '',
    ].join('\n'));
  }
  // A query of the app's own (the demo's people, else its first list), so the example runs as printed.
  const exampleContext = ast.contexts.person_list ? 'person_list' : Object.keys(ast.contexts).find((name) => ast.contexts[name].kind === 'list');
  if (exampleContext) {
    const bearer = token ? ` -H "authorization: Bearer ${values['token-file'] ? '<token>' : '$XOS_TOKEN'}"` : '';
    lines.push('', 'Try the example query:', `  curl -s ${http.url}/graphql -H 'content-type: application/json'${bearer} \\`, `    -d '${JSON.stringify({ query: exampleQuery(ast, exampleContext) })}'`);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await http.close();
    await backend.close();
    process.exit(0);
  };
  // Before the start lines: whoever reads them may stop the server at once, and it stops cleanly.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  lines.push('', 'Press Ctrl+C to stop.');
  console.log(lines.join('\n'));
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsersError) {
    console.error(`xos-server users: ${e.message}`);
    process.exit(1);
  }
  if (e instanceof AstError) {
    console.error(e.message);
    process.exit(2);
  }
  const code = (e as { code?: string }).code;
  if (e instanceof UsageError || code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' || code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    console.error(`xos-server: ${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`xos-server: ${(e as Error)?.message ?? e}`);
  process.exit(1);
});
