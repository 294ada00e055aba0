// Answering a VS Code notification like a person: find it, look at it, click.
import type { Page } from './browser.ts';
import { screenshot } from './artifacts.ts';

/**
 * Waits for the notification asking `question`, takes a screenshot `shot` and clicks
 * `button`; returns the question's text. In headless code-server the question shows as a
 * toast only rarely (measured: it went to the notification center every time), so after a
 * short look for a toast the center is opened with the status bar's bell, and opened again
 * while the question has not shown (the center closes when focus moves to a webview that
 * renders meanwhile). The bell, not the command palette: typing a command while an editor
 * opens can type it into the editor.
 */
export async function answerNotification(page: Page, question: RegExp, button: string, shot: string, { timeoutMs = 90_000 } = {}): Promise<string> {
  const item = page.locator('.notification-list-item', { hasText: question }).first();
  const center = page.locator('.notifications-center.visible');
  const bell = page.locator('[id="status.notifications"]').first();
  const deadline = Date.now() + timeoutMs;
  let look = 2_000;
  for (;;) {
    try {
      await item.waitFor({ state: 'visible', timeout: Math.max(1, Math.min(look, deadline - Date.now())) });
      break;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      look = 5_000;
      // The bell toggles the center: only clicked while it is closed.
      if (!(await center.isVisible())) {
        await bell.click({ timeout: 5_000 }).catch((clickError: unknown) => console.error(`the notification bell: ${String(clickError)}`));
        // Off the bell, or its tooltip stays over the center's buttons.
        await page.mouse.move(1, 1);
      }
    }
  }
  const text = (await item.locator('.notification-list-item-message').innerText()).replaceAll('\u00a0', ' ').trim();
  await screenshot(page, shot);
  await item.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).first().click({ timeout: 10_000 });
  await item.waitFor({ state: 'hidden', timeout: 10_000 });
  return text;
}
