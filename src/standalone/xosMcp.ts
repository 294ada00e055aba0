// xos-mcp: the nine XOS tools for any MCP client, without VS Code. The same tool registry,
// use cases and Board as the extension: the backend (embedded SQLite or PostgreSQL, or a
// remote xos-server), the Board in a browser (src/standalone/boardServer.ts), and the
// person's confirmations as dialogs on that page. MCP over stdio (clients that start it) or
// Streamable HTTP on loopback with a bearer token (clients that connect); both serve protocol
// revisions 2025-11-25 and 2026-07-28, the client's choice.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAstFile } from '../ast/load.ts';
import { pickLocale } from '../ast/locale.ts';
import type { Ast } from '../ast/schema.ts';
import { appName } from '../ast/appName.ts';
import { startWorkerBackend } from '../graphql/workerBackend.ts';
import { demoApp } from '../backend/demo.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../store/approvalStore.ts';
import { QuestionConfirmer } from '../board/confirmer.ts';
import type { BoardController, BoardUi } from '../board/controller.ts';
import type { PageQuestion } from '../board/pageQuestions.ts';
import { XosApp } from '../app/xosApp.ts';
import { boardTexts, translator } from '../board/texts.ts';
import { boardTitle } from '../text/boardTitle.ts';
import { ContactDirectory } from '../contacts/directory.ts';
import { countryOfLocale } from '../contacts/normalize.ts';
import { xosRecordProviders } from '../contacts/xosRecords.ts';
import { writeCsvFile } from '../core/csv.ts';
import { ensurePrivateDir, openPrivateFile, taken, tightenFile, writePrivateFile } from '../core/privateFiles.ts';
import type { Contacts, Mailer, XosClient } from '../core/domain.ts';
import { connectRemoteClient } from '../graphql/client.ts';
import { createSmtpMailer, smtpSettingsProblems, type SmtpSettings } from '../mail/smtp.ts';
import { startMcpHttpServer, type McpHttpServer } from '../mcp/http.ts';
import type { XosDeps } from '../mcp/ports.ts';
import { serveMcpStdio } from '../mcp/stdio.ts';
import { packageRoot } from '../packageRoot.ts';
import { startBoardServer, type BoardServer } from './boardServer.ts';

export interface XosMcpOptions {
  /** The app's AST file (JSON or YAML); the bundled demo CRM when absent. */
  readonly ast?: string;
  /** sqlite:<path> | postgres://…; the default is a seeded SQLite file in `dataDir`. */
  readonly dsn?: string;
  /** A running xos-server (its base URL) instead of an embedded backend. */
  readonly server?: string;
  readonly serverToken?: string;
  /** Who uses the embedded backend (`--person`): named with every request, kept in the audit trail. */
  readonly person?: string;
  /** `stdio`: the client starts xos-mcp; `http`: clients connect to the loopback endpoint. */
  readonly transport: 'stdio' | 'http';
  /** The MCP endpoint's port (http; 0: any free one). */
  readonly port?: number;
  /** The MCP endpoint's bearer token (http). */
  readonly token?: string;
  /** The Board's port (0, the default: any free one). */
  readonly boardPort?: number;
  /** The Board page's key; random when absent. */
  readonly boardKey?: string;
  readonly locale?: string;
  /** How long a question on the Board waits for the person (default 300 s). */
  readonly confirmTimeoutSeconds?: number;
  /** Mail: the SMTP server and sender; the password comes from the environment. */
  readonly mail?: SmtpSettings & { readonly password?: string };
  /** Seconds a confirmed mail waits before it goes out (default 10, Undo on the Board). */
  readonly mailUndoSeconds?: number;
  /** Seconds a stored approval waits for the person's decision (default 900). */
  readonly approvalSeconds?: number;
  /** Requests of one credential that may wait for the person's decision at once (default 20). */
  readonly pendingApprovals?: number;
  /** Where the default database, the Board's kept work and the current Board link live (0700). */
  readonly dataDir: string;
  /** Where CSV exports are written (each file 0600, never through a symbolic link). */
  readonly exportDir: string;
  /** Lines for the person (stderr: stdout belongs to MCP over stdio). */
  readonly log: (line: string) => void;
  /** For tests: the stdio transport's streams. */
  readonly stdio?: { readonly stdin: NodeJS.ReadableStream; readonly stdout: NodeJS.WritableStream };
}

export interface RunningXosMcp {
  readonly board: BoardServer;
  /** The MCP endpoint (http only). */
  readonly mcp?: McpHttpServer;
  readonly controller: BoardController;
  readonly where: string;
  close(): Promise<void>;
}

interface OpenBackend {
  readonly client: XosClient;
  readonly where: string;
  close(): Promise<void>;
}

async function openBackend(options: XosMcpOptions): Promise<OpenBackend> {
  if (options.server) {
    const client = await connectRemoteClient({ endpoint: options.server, token: options.serverToken });
    return { client, where: options.server, close: async () => {} };
  }
  const ast: Ast = options.ast ? await loadAstFile(resolve(options.ast)) : demoApp();
  let dsn = options.dsn;
  if (!dsn) {
    // Only the person reads xos-mcp's own database: the folder 0700, the file (and SQLite's
    // -wal and -shm, which take the database file's mode) 0600, created so before SQLite opens it.
    ensurePrivateDir(options.dataDir);
    const file = join(options.dataDir, 'xos.db');
    closeSync(openPrivateFile(file, { truncate: false }));
    for (const side of ['-wal', '-shm', '-journal']) tightenFile(`${file}${side}`);
    dsn = `sqlite:${file}`;
  }
  // The backend runs on its own thread: a long query never holds up the Board's server or MCP.
  const backend = await startWorkerBackend({
    ast, dsn,
    // The default database starts with the AST's demo records; seeding fills only empty tables.
    seed: options.dsn ? undefined : true,
    onInternalError: (text) => options.log(`internal error: ${text}`),
    ...(options.person !== undefined ? { person: { name: options.person } } : {}),
  });
  return { client: backend.client, where: backend.description, close: () => backend.close() };
}

export async function startXosMcp(options: XosMcpOptions): Promise<RunningXosMcp> {
  const { log } = options;
  const backend = await openBackend(options);
  const { client } = backend;
  let chosenLocale = options.locale;
  const locale = () => pickLocale(chosenLocale, client.ast().locales);
  const t = (message: string, ...args: ReadonlyArray<string | number>) => translator(locale())(message, ...args);

  let board: BoardServer | undefined;
  const boardUrl = () => board?.url ?? '';
  // Where the person confirms, for a reply that can only say "open the Board" (never the key).
  const openTheBoard = () => `the person confirms on the XOS Board page, and it is not open. Ask them to open the Board (the link xos-mcp printed when it started, ${boardUrl()}) and then call the tool again.`;

  let toldToOpen = false;
  // While a question is open on the page, no other page takes the Board over (boardServer's busy).
  let openQuestions = 0;
  const askOnPage = async (question: PageQuestion, signal: AbortSignal) => {
    openQuestions++;
    try {
      return await controller.questions.ask(question, signal);
    } finally {
      openQuestions--;
    }
  };
  const pageUi = (self: XosApp): BoardUi => ({
    t,
    // What VS Code says in a notification, the page says in its status line (an Undo there is in the History and on the mail draft).
    tell: async (kind, text) => {
      log(`${kind === 'info' ? '' : `${kind}: `}${text}`);
      controller.setStatus({ kind: kind === 'info' ? 'info' : 'error', text });
      return undefined;
    },
    askDiscard: async (question, detail, discard) => {
      // In turn with the save and send questions: it never replaces one the person has open.
      const answer = await self.confirmer.askInTurn({ kind: 'discard', message: `${question} ${detail}`, buttons: [discard, t('Cancel')] }, new AbortController().signal);
      return answer === discard;
    },
    setLocale: (next) => {
      chosenLocale = next;
      controller.render();
    },
    csvExport: async (context) => {
      mkdirSync(options.exportDir, { recursive: true });
      // A fresh name: anything there, a (dangling) symbolic link included, is skipped; the file is
      // 0600 and opened without following a link, so one planted in between is refused, not written through.
      let path = join(options.exportDir, `${context}.csv`);
      for (let n = 2; taken(path); n++) path = join(options.exportDir, `${context}-${n}.csv`);
      const target = path;
      return { where: target, run: (write) => writeCsvFile(target, write, new AbortController().signal, { private: true }) };
    },
    log: { info: (text) => log(text), warn: (text) => log(`warning: ${text}`), error: (text) => log(`error: ${text}`) },
  });

  const mailer: Mailer | undefined = mailerOf(options, log);
  const contacts: Contacts = new ContactDirectory(xosRecordProviders(client), { country: countryOfLocale(locale()) });
  const app: XosApp = new XosApp({
    client,
    locale,
    surface: {
      show: () => {
        // Said once until a page is open, not at every change.
        if (board?.connected() || toldToOpen) return;
        toldToOpen = true;
        log(`The XOS Board shows something new: open ${boardUrl()} (with the link printed at the start).`);
      },
      isOpen: () => board?.connected() === true,
      isVisible: () => board?.connected() === true,
      setTitle: () => {},
    },
    ui: pageUi,
    confirmer: (): QuestionConfirmer => new QuestionConfirmer({
      ast: () => client.ast(),
      locale,
      t,
      timeoutSeconds: () => options.confirmTimeoutSeconds ?? 300,
      ask: ({ kind, message, buttons, waiting, onWaiting }, signal) => askOnPage({ kind, message, buttons, waiting, onWaiting }, signal),
      unavailable: () => (controller.connected ? undefined : openTheBoard()),
      log: { info: (text) => log(text) },
    }),
    contacts: () => contacts,
    mailer: () => mailer,
    mailUndoSeconds: () => options.mailUndoSeconds ?? 10,
    boardUrl,
    // Requests without an MCP session wait here for the person's decision on the Board.
    storedApprovals: {
      store: new SqliteApprovalStore(join(options.dataDir, APPROVALS_FILE)),
      backend: () => backend.where,
      person: () => options.person,
      warn: (text) => log(`warning: ${text}`),
      ...(options.approvalSeconds === undefined ? {} : { ttlMs: options.approvalSeconds * 1000 }),
      ...(options.pendingApprovals === undefined ? {} : { maxPending: options.pendingApprovals }),
    },
  });
  const { controller, confirmer } = app;
  const deps = (): XosDeps => app.deps();

  try {
    board = await startBoardServer({
      key: options.boardKey,
      port: options.boardPort ?? 0,
      assets: join(packageRoot(), 'dist', 'webview'),
      lang: locale,
      // The tab names the app, as the Board's tab in VS Code does: two apps' Boards are told apart.
      title: () => boardTitle(boardTexts(locale()).title, appName(client.ast(), locale())),
      busy: () => openQuestions > 0 || confirmer.asking,
      connect: (endpoint) => {
        toldToOpen = false;
        return controller.connect(endpoint);
      },
    });
  } catch (error) {
    app.dispose();
    await backend.close();
    throw error;
  }
  // Unsaved Board work and the Board's history outlive a stop, per app and data source (as in VS Code).
  const ast = client.ast();
  const keptDir = join(options.dataDir, 'board', createHash('sha256').update(`${ast.app}\n${backend.where}`).digest('hex').slice(0, 16));
  ensurePrivateDir(options.dataDir);
  ensurePrivateDir(join(options.dataDir, 'board'));
  ensurePrivateDir(keptDir);
  const kept = app.keepWork(keptDir, (text) => log(`warning: ${text}`));
  const hadHistory = kept.restoreHistory();
  if (kept.draft) {
    app.state.restore(kept.draft.draft);
    log(`Restored unsaved Board work from ${kept.draft.savedAt}.`);
  }
  // Where the Board was, unless restored work shows instead; kept grid edits come back with their list, so it is shown.
  if ((!kept.draft || (kept.draft.draft.grid && !kept.draft.draft.detail)) && hadHistory) void controller.navigation.resume();
  log(`XOS for app "${appName(ast, locale())}" on ${backend.where}`);
  log(`Open the XOS Board: ${board.link}`);
  // For clients that hide stderr (Claude Desktop): the link of the running xos-mcp, readable by the person only.
  const linkFile = join(options.dataDir, 'board-link');
  try {
    writePrivateFile(linkFile, `${board.link}\n`);
  } catch (error) {
    log(`warning: could not write the Board link to ${linkFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const boardLink = board.link;
  const forgetLink = () => {
    try {
      // Another xos-mcp started since may have written its own link there: that one stays.
      if (readFileSync(linkFile, 'utf8').trim() === boardLink) rmSync(linkFile, { force: true });
    } catch {
      // Gone already.
    }
  };

  let mcp: McpHttpServer | undefined;
  let closeStdio: (() => Promise<void>) | undefined;
  try {
    if (options.transport === 'http') {
      if (!options.token) throw new Error('MCP over HTTP needs a token: set XOS_MCP_TOKEN or pass --token-file <file>.');
      mcp = await startMcpHttpServer(deps, { token: options.token, port: options.port ?? 0 });
      log(`MCP endpoint: ${mcp.url} (Authorization: Bearer <token>)`);
    } else {
      const served = serveMcpStdio(deps, log, options.stdio);
      closeStdio = () => served.close();
    }
  } catch (error) {
    app.dispose();
    forgetLink();
    await board.close();
    await backend.close();
    throw error;
  }

  return {
    board,
    mcp,
    controller,
    where: backend.where,
    async close() {
      app.dispose();
      await closeStdio?.();
      await mcp?.close();
      await board?.close();
      forgetLink();
      await backend.close();
    },
  };
}

function mailerOf(options: XosMcpOptions, log: (line: string) => void): Mailer | undefined {
  if (!options.mail) return undefined;
  const problems = smtpSettingsProblems(options.mail);
  if (problems.length) {
    log(`mail is not set up: ${problems.join('; ')}`);
    return undefined;
  }
  const password = options.mail.password;
  return createSmtpMailer(options.mail, { password: async () => password, log: (line) => log(line) });
}
