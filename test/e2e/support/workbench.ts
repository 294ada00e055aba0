// Driving the VS Code workbench in the page the way a person would.
import type { Page } from './browser.ts';
import { vscodeServer } from './codeServer.ts';

export const workbenchTimeoutMs = 90_000;

export async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: workbenchTimeoutMs });
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: workbenchTimeoutMs });
}

/**
 * Opens the command palette with F1, types the command's title and clicks the match.
 * The palette lists only what is registered when it opens, and extension commands arrive
 * a moment after the workbench shows, so it reopens until the command is there.
 */
export async function runCommand(page: Page, title: string, { timeoutMs = 30_000 } = {}): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const match = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: title }).first();
  await vscodeServer.waitFor(async () => {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 5_000 });
    await page.keyboard.type(title);
    try {
      await match.waitFor({ state: 'visible', timeout: 2_000 });
      return true;
    } catch {
      await page.keyboard.press('Escape');
      return undefined;
    }
  }, { timeoutMs, intervalMs: 500, describe: () => `the command palette never offered "${title}"` });
  // A click runs exactly this row; Enter would run whichever row has focus while the list still filters.
  await match.click({ timeout: 5_000 });
}

/**
 * Runs a palette command until its effect shows, as a person would click again when
 * nothing happened: right after start-up a click on a row that is still being filtered
 * can miss. `effect` returns a value once the command took effect.
 */
export async function runCommandUntil<T>(page: Page, title: string, effect: () => Promise<T | undefined>, { timeoutMs = 60_000, attemptMs = 8_000 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, title);
    const seen = await vscodeServer.waitFor(effect, { timeoutMs: Math.min(attemptMs, Math.max(1, deadline - Date.now())), describe: () => '' }).catch(() => undefined);
    if (seen !== undefined) return seen;
    if (Date.now() >= deadline) throw new Error(`"${title}" showed no effect after ${attempt} attempts in ${timeoutMs} ms`);
    await page.keyboard.press('Escape');
  }
}
