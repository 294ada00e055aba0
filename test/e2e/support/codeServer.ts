// Typed access to scripts/lib/vscode-server.mjs (plain JavaScript, shared with the CLI scripts).
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface CodeServerOptions {
  readonly workspace?: string;
  readonly settings?: Record<string, unknown>;
  readonly extensionsDir?: string;
  readonly userDataDir?: string;
  readonly port?: number;
  readonly smokeTestDriver?: boolean;
  readonly extraArgs?: readonly string[];
  /** Variables for code-server and its extension hosts. */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  readonly home: string;
  readonly logPath: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  log(): string;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  readonly describe: () => string;
}

export interface ExtensionDirs {
  readonly extensionsDir: string;
  readonly userDataDir: string;
}

export interface VscodeServerLib {
  readonly CODE_SERVER_VERSION: string;
  readonly CHROMIUM_PATH: string;
  readonly CHROMIUM_ARGS: readonly string[];
  cacheRoot(): string;
  playwrightPackageJson(): string;
  assertProvisioned(): void;
  startCodeServer(options: CodeServerOptions): Promise<CodeServer>;
  installExtension(vsixOrDir: string, dirs: ExtensionDirs): Promise<void>;
  listExtensions(dirs: ExtensionDirs): Promise<string[]>;
  waitFor<T>(check: () => Promise<T | undefined> | T | undefined, options: WaitOptions): Promise<T>;
}

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const libUrl = pathToFileURL(fileURLToPath(new URL('../../../scripts/lib/vscode-server.mjs', import.meta.url))).href;

export const vscodeServer: VscodeServerLib = await import(libUrl);
