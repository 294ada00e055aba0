// Answering a VS Code notification like a person: find it, look at it, click.
import type { Page } from './browser.ts';
import { screenshot } from './artifacts.ts';
import { runCommand } from './workbench.ts';

/**
 * Waits for the notification asking `question`, takes a screenshot `shot` and clicks
 * `button`; returns the question's text. In headless code-server the question shows as a
 * toast only rarely (measured: it went to the notification center every time), so after a
 * short look for a toast the center is opened from the command palette, and opened again
 * while the question has not shown (the center closes when focus moves to a webview that
 * renders meanwhile).
 */
export async function answerNotification(page: Page, question: RegExp, button: string, shot: string, { timeoutMs = 90_000 } = {}): Promise<string> {
  const item = page.locator('.notification-list-item', { hasText: question }).first();
  const center = page.locator('.notifications-center.visible');
  const deadline = Date.now() + timeoutMs;
  let look = 2_000;
  for (;;) {
    try {
      await item.waitFor({ state: 'visible', timeout: Math.max(1, Math.min(look, deadline - Date.now())) });
      break;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      look = 5_000;
      if (!(await center.isVisible())) await runCommand(page, 'Notifications: Show Notifications').catch(() => undefined);
    }
  }
  const text = (await item.locator('.notification-list-item-message').innerText()).replaceAll('\u00a0', ' ').trim();
  await screenshot(page, shot);
  await item.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).first().click({ timeout: 10_000 });
  await item.waitFor({ state: 'hidden', timeout: 10_000 });
  return text;
}
