// Driving the real chat view in agent mode, the way a person would: type a prompt, send it,
// wait for the turn to end, read the transcript, answer a tool confirmation card.
// The scripted-model extension (scriptedModel.ts) prepares a fresh profile: it re-enables
// the built-in chat (workbench.action.chat.manage) and selects its model.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { artifactPath, saveFailureArtifacts } from './artifacts.ts';
import type { Locator, Page } from './browser.ts';
import { vscodeServer, type CodeServer } from './codeServer.ts';
import { readReady, readRequests, type ReadyReport } from './scriptedModel.ts';
import { waitForWorkbench } from './workbench.ts';
export { answerNotification } from './notifications.ts';

const input = '.interactive-input-part .interactive-input-editor';
const sendButton = '.interactive-input-part .chat-submit-button a.action-label';
const transcriptList = '.interactive-list';
const latestResponse = '.interactive-list .interactive-response.chat-most-recent-response';
const confirmationButtons = '.interactive-list .chat-confirmation-widget-container .monaco-button';

export const turnTimeoutMs = 90_000;

/** The buttons of a confirmation card still waiting for an answer. */
const pendingConfirmation = /^(Allow|Skip)/;

const normalise = (text: string) => text.replaceAll('\u00a0', ' ');

/**
 * Waits for the scripted-model extension to report it prepared the chat, closes the
 * "Language Models" editor chat.manage opened (Escape) and waits for the chat input.
 * Returns the extension's report (models, live `mcp_*` tools).
 */
export async function openAgentChat(page: Page, workspace: string, { timeoutMs = 90_000 } = {}): Promise<ReadyReport> {
  const ready = await vscodeServer.waitFor(() => readReady(workspace), {
    timeoutMs,
    describe: () => 'the scripted-model extension never wrote .xos-test/ready.json',
  });
  if (!ready.ok) throw new Error(`the scripted-model extension could not prepare the chat: ${ready.error}`);
  await page.keyboard.press('Escape');
  await page.locator(input).waitFor({ state: 'visible', timeout: timeoutMs });
  return ready;
}

/** Clicks into the chat input, types the prompt and sends it. */
export async function sendPrompt(page: Page, prompt: string): Promise<void> {
  await page.locator(input).click({ timeout: 10_000 });
  await page.keyboard.type(prompt);
  await page.locator(sendButton).first().click({ timeout: 10_000 });
}

/** True while a request runs: the chat swaps the send button for a cancel button. */
async function isBusy(page: Page): Promise<boolean> {
  return (await page.locator('.interactive-list .chat-response-loading').count()) > 0
    || (await page.locator('.interactive-input-part .codicon-stop-circle').count()) > 0;
}

/**
 * Waits until the turn for `prompt` ended: the scripted model gave its final text for it
 * (its request log says so), the most recent response is rendered and not loading, and no
 * confirmation card waits for an answer (answer one with `confirmTool` first). The chat
 * list renders only the rows scrolled into view, so the page alone cannot tell which
 * request is the newest.
 */
export async function waitForTurnEnd(page: Page, workspace: string, prompt: string, { timeoutMs = turnTimeoutMs } = {}): Promise<string> {
  return vscodeServer.waitFor(async () => {
    const answered = readRequests(workspace).some((request) => request.offered.length > 0 && request.prompt.includes(prompt) && request.reply.kind === 'text');
    if (!answered) return undefined;
    if ((await page.locator(latestResponse).count()) === 0) return undefined;
    if (await isBusy(page)) return undefined;
    if ((await page.locator(confirmationButtons, { hasText: pendingConfirmation }).count()) > 0) return undefined;
    return readTranscript(page);
  }, { timeoutMs, intervalMs: 300, describe: () => `the chat turn for "${prompt}" did not end` });
}

/** The transcript as far as the chat renders it (prompts, tool lines, answers in view). */
export async function readTranscript(page: Page): Promise<string> {
  return normalise((await page.locator(transcriptList).allInnerTexts()).join('\n'));
}

/** The text of the most recent response (with its tool lines and footer). */
export async function lastResponse(page: Page): Promise<string> {
  const texts = await page.locator(latestResponse).allInnerTexts();
  return normalise(texts.at(-1) ?? '');
}

/** The model's own words in the most recent response: its last rendered markdown block. */
export async function lastAnswer(page: Page): Promise<string> {
  const texts = await page.locator(latestResponse).last().locator('.rendered-markdown').allInnerTexts();
  return normalise(texts.filter((text) => text.trim()).at(-1) ?? '').trim();
}

/** Waits for a tool confirmation card and clicks its button, e.g. "Allow in this Session" or "Skip". */
export async function confirmTool(page: Page, button: string, { timeoutMs = turnTimeoutMs } = {}): Promise<void> {
  const match = page.locator(confirmationButtons, { hasText: button }).first();
  await match.waitFor({ state: 'visible', timeout: timeoutMs });
  await match.click({ timeout: 10_000 });
}

/** A visible button of a confirmation card waiting for an answer whose label matches `label`. */
export function pendingConfirmationButton(page: Page, label: RegExp): Locator {
  return page.locator(`${confirmationButtons}:visible`, { hasText: label }).first();
}


/** Opens the workbench of `workspace` on `page` and the agent chat in it: the scripted model's ready report. */
export async function openWorkbenchChat(page: Page, server: CodeServer, workspace: string): Promise<ReadyReport> {
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
  await waitForWorkbench(page);
  return openAgentChat(page, workspace);
}

/** Fails unless every one of `tools` is among the live MCP tools the chat offers (as `mcp_<server>_<tool>`). */
export function assertLiveTools(ready: ReadyReport, tools: readonly string[]): void {
  for (const tool of tools) {
    assert.ok(ready.tools?.some((name) => name.endsWith(`_${tool}`)), `no *_${tool} among the live MCP tools: ${ready.tools?.join(', ')}`);
  }
}

/** After a failed run: the screenshot and code-server's log, and the requests the scripted model saw. */
export async function saveChatFailure(name: string, page: Page | undefined, server: CodeServer | undefined, workspace: string | undefined): Promise<void> {
  await saveFailureArtifacts(name, page, server?.logPath);
  const requests = join(workspace ?? '', '.xos-test', 'requests.jsonl');
  if (workspace && existsSync(requests)) copyFileSync(requests, artifactPath(`${name}-requests.jsonl`));
}
