// Driving the VS Code workbench in the page the way a person would: typed access to
// scripts/lib/workbench.mjs, which `npm start --check` uses as well.
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from './browser.ts';

interface WorkbenchLib {
  readonly workbenchTimeoutMs: number;
  waitForWorkbench(page: Page): Promise<void>;
  /** Opens the command palette with F1, types the command's title and clicks the match. */
  runCommand(page: Page, title: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Runs a palette command until `effect` resolves to a value other than undefined. */
  runCommandUntil<T>(page: Page, title: string, effect: () => Promise<T | undefined>, options?: { timeoutMs?: number; attemptMs?: number }): Promise<T>;
}

const libUrl = pathToFileURL(fileURLToPath(new URL('../../../scripts/lib/workbench.mjs', import.meta.url))).href;
const lib: WorkbenchLib = await import(libUrl);

export const { workbenchTimeoutMs, waitForWorkbench, runCommand, runCommandUntil } = lib;
