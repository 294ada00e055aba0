// Driving the VS Code workbench in a page the way a person would: shared by `npm start --check`
// and the browser tests (test/e2e/support/workbench.ts types it).
import { createRequire } from 'node:module';
import { CHROMIUM_ARGS, CHROMIUM_PATH, assertProvisioned, playwrightPackageJson, waitFor } from './vscode-server.mjs';

export const workbenchTimeoutMs = 90_000;
/**
 * How long one step in the page (a key, a click, a row to appear) may take. A loaded 2-core
 * machine answers a click in seconds, not milliseconds: a step waits this long for its
 * condition, while the whole command keeps its own limit.
 */
const stepTimeoutMs = 30_000;

/** Headless Debian Chromium through the provisioned playwright-core. */
export async function launchChromium() {
  assertProvisioned();
  const { chromium } = createRequire(playwrightPackageJson())('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/**
 * One Chromium for all the browser test files of a run: each file connects to it
 * (XOS_E2E_BROWSER, see test/e2e/support/browser.ts) and keeps its pages in contexts of its own,
 * instead of starting a browser of its own (about two CPU seconds each).
 */
export async function launchBrowserServer() {
  assertProvisioned();
  const { chromium } = createRequire(playwrightPackageJson())('playwright-core');
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

export async function waitForWorkbench(page) {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: workbenchTimeoutMs });
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: workbenchTimeoutMs });
}

/**
 * Opens the command palette with F1, types the command's title and clicks the match.
 * The palette lists only what is registered when it opens, and extension commands arrive
 * a moment after the workbench shows, so it reopens until the command is there. The palette
 * also closes when focus moves (an output or a panel a moment-late earlier command opens):
 * a row that was there and is hidden before the click is looked for again in a new palette.
 */
export async function runCommand(page, title, { timeoutMs = 60_000 } = {}) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const match = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: title }).first();
  await waitFor(async () => {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await page.keyboard.type(title);
    try {
      await match.waitFor({ state: 'visible', timeout: 5_000 });
      // A click runs exactly this row; Enter would run whichever row has focus while the list still filters.
      // A click that is not made (the row hidden meanwhile) ran nothing, so trying again is safe.
      await match.click({ timeout: 5_000 });
      return true;
    } catch {
      if (await input.isVisible()) await page.keyboard.press('Escape');
      return undefined;
    }
  }, { timeoutMs, intervalMs: 500, describe: () => `the command palette never offered "${title}", or it closed before its row could be clicked` });
}

/**
 * Runs a palette command until its effect shows, as a person would click again when
 * nothing happened: right after start-up a click on a row that is still being filtered
 * can miss. `effect` resolves to a value other than undefined once the command took effect.
 */
export async function runCommandUntil(page, title, effect, { timeoutMs = 60_000, attemptMs = 8_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, title);
    const seen = await waitFor(effect, { timeoutMs: Math.min(attemptMs, Math.max(1, deadline - Date.now())), describe: () => '' }).catch(() => undefined);
    if (seen !== undefined) return seen;
    if (Date.now() >= deadline) throw new Error(`"${title}" showed no effect after ${attempt} attempts in ${timeoutMs} ms`);
    await page.keyboard.press('Escape');
  }
}

/** The frame holding `selector` right now (webviews nest their content two frames deep), or undefined. */
export async function frameWith(page, selector) {
  for (const frame of page.frames()) {
    try {
      if (await frame.locator(selector).count() > 0) return frame;
    } catch {
      // Frames come and go while a webview loads.
    }
  }
  return undefined;
}
