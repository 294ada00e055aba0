// Driving the VS Code workbench in the page the way a person would.
import type { Page } from './browser.ts';

export const workbenchTimeoutMs = 90_000;

export async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: workbenchTimeoutMs });
  // The status bar fills in once the extension host is up; before that commands may be missing.
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: workbenchTimeoutMs });
}

/** Opens the command palette with F1, types the command's title and runs the first match. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.type(title);
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: title }).first()
    .waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Enter');
}
