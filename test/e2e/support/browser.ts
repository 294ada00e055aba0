// Headless Debian Chromium driven by playwright-core, both provisioned outside the repository.
import { createRequire } from 'node:module';
import { vscodeServer } from './codeServer.ts';

// The few Playwright types the suites use (playwright-core is not a dependency of the repo).
/** An element found by its ARIA role and accessible name (shadow roots included). */
export interface RoleOptions { name?: string | RegExp; exact?: boolean }

export interface Locator {
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  getByRole(role: string, options?: RoleOptions): Locator;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  first(): Locator;
  last(): Locator;
  nth(index: number): Locator;
  waitFor(options?: { state?: 'attached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  click(options?: { timeout?: number; clickCount?: number }): Promise<void>;
  dblclick(options?: { timeout?: number; position?: { x: number; y: number } }): Promise<void>;
  /** Types `value` into an input, replacing what it held. */
  fill(value: string, options?: { timeout?: number }): Promise<void>;
  press(key: string, options?: { timeout?: number }): Promise<void>;
  innerText(options?: { timeout?: number }): Promise<string>;
  /** The value of an input, textarea or select. */
  inputValue(options?: { timeout?: number }): Promise<string>;
  allInnerTexts(): Promise<string[]>;
  count(): Promise<number>;
  isVisible(): Promise<boolean>;
}

export interface Keyboard {
  press(key: string): Promise<void>;
  type(text: string, options?: { delay?: number }): Promise<void>;
}

export interface ConsoleMessage {
  type(): string;
  text(): string;
}

export interface Mouse {
  move(x: number, y: number): Promise<void>;
}

export interface Page {
  readonly mouse: Mouse;
  /** The document's title (the tab's text). */
  title(): Promise<string>;
  goto(url: string, options?: { waitUntil?: 'load' | 'domcontentloaded'; timeout?: number }): Promise<unknown>;
  reload(options?: { waitUntil?: 'load' | 'domcontentloaded'; timeout?: number }): Promise<unknown>;
  /** The page's browser context: its other pages share its storage (tabs of one browser profile). */
  context(): BrowserContext;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  getByRole(role: string, options?: RoleOptions): Locator;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  exposeFunction(name: string, callback: (...args: any[]) => unknown): Promise<void>;
  /** The system's colour scheme and forced colours (a high-contrast theme) as the page sees them. */
  emulateMedia(options: { colorScheme?: 'light' | 'dark'; forcedColors?: 'active' | 'none' }): Promise<void>;
  evaluate<T>(fn: () => T): Promise<T>;
  on(event: 'console', listener: (message: ConsoleMessage) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  readonly keyboard: Keyboard;
  close(): Promise<void>;
}

/** One browser profile: its pages share storage (IndexedDB included), like tabs of one browser. */
export interface BrowserContext {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface Browser {
  /** A page in a fresh context of its own (closed with the page; it cannot open more tabs). */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  newContext(options?: { viewport?: { width: number; height: number } }): Promise<BrowserContext>;
  version(): string;
  close(): Promise<void>;
}

interface PlaywrightCore {
  readonly chromium: {
    launch(options: { executablePath: string; headless: boolean; args: readonly string[]; timeout?: number }): Promise<Browser>;
    connect(wsEndpoint: string, options?: { timeout?: number }): Promise<Browser>;
  };
}

export function loadPlaywright(): PlaywrightCore {
  vscodeServer.assertProvisioned();
  const require = createRequire(vscodeServer.playwrightPackageJson());
  return require('playwright-core') as PlaywrightCore;
}

/**
 * The run's shared Chromium where the test runner started one (XOS_E2E_BROWSER: its endpoint;
 * close() then closes only this file's pages and contexts), else a browser of the file's own.
 */
export async function launchChromium(): Promise<Browser> {
  const shared = process.env.XOS_E2E_BROWSER;
  if (shared) {
    try {
      return await loadPlaywright().chromium.connect(shared, { timeout: 60_000 });
    } catch (error) {
      console.warn(`the run's shared Chromium did not answer (${String(error).split('\n')[0]}); this file starts its own`);
    }
  }
  return loadPlaywright().chromium.launch({
    executablePath: vscodeServer.CHROMIUM_PATH,
    headless: true,
    args: vscodeServer.CHROMIUM_ARGS,
    timeout: 60_000,
  });
}
