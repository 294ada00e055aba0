// Which XOS backend the tools talk to: the embedded one in the extension host
// (AST from xos.ast, else xos.json in the workspace, else the bundled demo; DSN
// from xos.dsn, else a seeded SQLite file in global storage) or a remote server
// (xos.endpoint). A failed start leaves the previous backend in place.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { AstError, loadAstFile } from '../ast/load.ts';
import type { Ast } from '../ast/schema.ts';
import { formatProblem } from '../ast/validate.ts';
import { FollowingFeed } from '../graphql/followingFeed.ts';
import { startWorkerBackend } from '../graphql/workerBackend.ts';
import { demoApp } from '../backend/demo.ts';
import { connectRemoteClient } from '../graphql/client.ts';
import type { DsnStatus, GraphQLResult, XosClient } from '../core/domain.ts';
import { isBackendSecret, readEndpointToken, readSettings, resolveDsn, type XosSettings } from './settings.ts';
import { notify } from './notify.ts';
import { localPerson } from './person.ts';
import { fetchMe } from '../graphql/me.ts';
import type { Person } from '../backend/people/person.ts';

export interface ActiveBackend {
  readonly mode: 'embedded' | 'remote';
  /** The DSN (password masked) or the endpoint URL. */
  readonly where: string;
  /** Where the AST came from: a file path, `demo`, or the endpoint. */
  readonly astSource: string;
  readonly client: XosClient;
  /** Who uses it: named by this VS Code (embedded), or by the endpoint's token (remote, GET /xos/me). */
  readonly person?: Person;
  close(): Promise<void>;
}

export type AstSource = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'demo' };

/** `xos.ast` (relative to the workspace root), else `xos.json` at the root, else the demo. */
export function resolveAstSource(setting: string, workspaceRoot: string | undefined): AstSource {
  if (setting) return { kind: 'file', path: isAbsolute(setting) || !workspaceRoot ? setting : join(workspaceRoot, setting) };
  if (workspaceRoot) {
    const candidate = join(workspaceRoot, 'xos.json');
    if (existsSync(candidate)) return { kind: 'file', path: candidate };
  }
  return { kind: 'demo' };
}

/**
 * A SQLite DSN with a relative path names a file in the workspace (like `xos.ast`), not in the
 * extension host's working directory; other DSNs are returned as they are.
 */
export function resolveSqliteDsn(dsn: string, workspaceRoot: string | undefined): string {
  const location = dsn.startsWith('sqlite:') ? dsn.slice('sqlite:'.length) : undefined;
  if (location === undefined || location === ':memory:' || location.trim() === '' || isAbsolute(location) || !workspaceRoot) return dsn;
  return `sqlite:${join(workspaceRoot, location)}`;
}

export interface BackendServiceOptions {
  readonly globalStorage: vscode.Uri;
  readonly secrets: vscode.SecretStorage;
  readonly output: vscode.LogOutputChannel;
  /** Where the person's account name is remembered between starts (src/host/person.ts). */
  readonly memory: vscode.Memento;
}

export class BackendService implements vscode.Disposable {
  private readonly options: BackendServiceOptions;
  private active: ActiveBackend | undefined;
  private starting: Promise<boolean> = Promise.resolve(false);
  /** Set while restartAfter's change runs: restarts wait for its end. */
  private hold: { requested: boolean; readonly done: Promise<boolean> } | undefined;
  private readonly changed = new vscode.EventEmitter<ActiveBackend>();
  readonly onDidChange = this.changed.event;

  /** The current backend's change feed, followed across restarts (the Board subscribes once). */
  private readonly feed = new FollowingFeed();

  /** Always the current backend; calls fail with a clear message while there is none. */
  readonly client: XosClient = {
    run: (query, variables, audit): Promise<GraphQLResult> => this.current().client.run(query, variables, audit),
    ast: (): Ast => this.current().client.ast(),
    status: (): Promise<DsnStatus> => this.current().client.status(),
    feed: this.feed,
  };

  private readonly secretsListener: vscode.Disposable;

  constructor(options: BackendServiceOptions) {
    this.options = options;
    // A new database password or server token takes effect at once.
    this.secretsListener = options.secrets.onDidChange((event) => {
      if (isBackendSecret(event.key)) void this.restart();
    });
  }

  get backend(): ActiveBackend | undefined {
    return this.active;
  }

  /** (Re)starts from the current settings, one start at a time; resolves whether it worked. */
  restart(): Promise<boolean> {
    if (this.hold) {
      this.hold.requested = true;
      return this.hold.done;
    }
    this.starting = this.starting.then(() => this.startNow(readSettings()));
    return this.starting;
  }

  /**
   * Runs `change` (which writes what the backend starts from: the AST file, settings, the
   * password) with restarts held back, so no start sees half of it; then starts once, when
   * `change` resolved true or a restart was asked for meanwhile. Resolves whether that start
   * worked (false when there was none).
   */
  async restartAfter(change: () => Promise<boolean>): Promise<boolean> {
    while (this.hold) await this.hold.done;
    let settle!: (started: Promise<boolean>) => void;
    const done = new Promise<boolean>((resolve) => {
      settle = (started) => void started.then(resolve, () => resolve(false));
    });
    const hold = { requested: false, done };
    this.hold = hold;
    let wanted = false;
    try {
      // A start under way reads the settings as they were before the change.
      await this.starting;
      wanted = await change();
    } finally {
      this.hold = undefined;
      settle(wanted || hold.requested ? this.restart() : Promise.resolve(false));
    }
    return done;
  }

  private current(): ActiveBackend {
    if (!this.active) throw new Error('XOS has no backend: the AST or the endpoint could not be loaded (see the XOS output).');
    return this.active;
  }

  private async startNow(settings: XosSettings): Promise<boolean> {
    const { output } = this.options;
    let next: ActiveBackend;
    try {
      next = settings.endpoint ? await this.connectRemote(settings.endpoint) : await this.startEmbedded(settings);
    } catch (error) {
      this.report(error);
      return false;
    }
    const previous = this.active;
    this.active = next;
    this.feed.follow(next.client.feed);
    output.info(`XOS backend: ${next.mode} ${next.where} (AST: ${next.astSource})`);
    this.changed.fire(next);
    await previous?.close().catch((error: unknown) => output.warn(`closing the previous backend failed: ${String(error)}`));
    return true;
  }

  private async startEmbedded(settings: XosSettings): Promise<ActiveBackend> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const source = resolveAstSource(settings.ast, root);
    const ast = source.kind === 'file' ? await loadAstFile(source.path) : demoApp();
    let dsn = resolveSqliteDsn(settings.dsn, root);
    if (!dsn) {
      await vscode.workspace.fs.createDirectory(this.options.globalStorage);
      dsn = `sqlite:${vscode.Uri.joinPath(this.options.globalStorage, 'xos.db').fsPath}`;
    }
    // The default database starts with the AST's demo records; seeding fills only empty tables.
    // The backend runs on its own thread: a long query never holds up the extension host.
    const person = localPerson(this.options.memory);
    const backend = await startWorkerBackend({
      ast,
      ...(person ? { person } : {}),
      dsn: await resolveDsn(dsn, this.options.secrets),
      seed: settings.dsn ? undefined : true,
      onInternalError: (text) => this.options.output.error(`XOS backend error: ${text}`),
    });
    const seeded = Object.entries(backend.seeded).filter(([, n]) => n > 0);
    if (seeded.length) this.options.output.info(`seeded ${seeded.map(([entity, n]) => `${n} ${entity}`).join(', ')}`);
    return {
      mode: 'embedded',
      where: backend.description,
      astSource: source.kind === 'file' ? source.path : 'demo',
      client: backend.client,
      ...(person ? { person } : {}),
      close: () => backend.close(),
    };
  }

  private async connectRemote(endpoint: string): Promise<ActiveBackend> {
    const token = await readEndpointToken(endpoint, this.options.secrets, this.options.output);
    const client = await connectRemoteClient({ endpoint, token: token || undefined });
    const person = await fetchMe(endpoint, token || undefined);
    return { mode: 'remote', where: endpoint, astSource: endpoint, client, ...(person ? { person } : {}), close: async () => {} };
  }

  private report(error: unknown): void {
    const { output } = this.options;
    if (error instanceof AstError) {
      const problems = error.problems.map(formatProblem);
      output.error(`XOS could not load the AST ${error.source}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
      const open = vscode.l10n.t('Open File');
      const shown = problems.slice(0, 5).join('; ') + (problems.length > 5 ? ` (+${problems.length - 5})` : '');
      // Not awaited: the next start must not wait for the person to react.
      void notify('error', vscode.l10n.t('XOS could not load the AST {0}: {1}', error.source, shown), [open]).then((choice) => {
        if (choice === open) return openAt(error.source, error.problems[0]?.line, error.problems[0]?.column);
      });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    output.error(`XOS backend did not start: ${message}`);
    void notify('error', vscode.l10n.t('XOS backend did not start: {0}', message));
  }

  dispose(): void {
    this.secretsListener.dispose();
    this.changed.dispose();
    this.feed.follow(undefined);
    void this.active?.close();
    this.active = undefined;
  }
}

async function openAt(path: string, line: number | undefined, column: number | undefined): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), Math.max(0, (column ?? 1) - 1));
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position) });
}
