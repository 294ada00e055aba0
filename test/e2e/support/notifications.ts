// Answering a VS Code notification like a person: find it, look at it, click.
import type { Page } from './browser.ts';
import { screenshot } from './artifacts.ts';
import { runCommand } from './workbench.ts';

/**
 * Waits for the notification asking `question`, takes a screenshot `shot` and clicks
 * `button`; returns the question's text. In code-server a toast may go straight to the
 * notification center (e.g. while another message is shown); then the center is opened
 * from the command palette.
 */
export async function answerNotification(page: Page, question: RegExp, button: string, shot: string, { timeoutMs = 90_000 } = {}): Promise<string> {
  const item = page.locator('.notification-list-item', { hasText: question }).first();
  // The center can close again before the notification arrives (focus moving to a webview that
  // renders meanwhile): it is opened again until the notification shows or the time is up.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await item.waitFor({ state: 'visible', timeout: Math.max(1, Math.min(15_000, deadline - Date.now())) });
      break;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await runCommand(page, 'Notifications: Show Notifications').catch(() => undefined);
    }
  }
  const text = (await item.locator('.notification-list-item-message').innerText()).replaceAll('\u00a0', ' ').trim();
  await screenshot(page, shot);
  await item.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).first().click({ timeout: 10_000 });
  await item.waitFor({ state: 'hidden', timeout: 10_000 });
  return text;
}
