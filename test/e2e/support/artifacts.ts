// Screenshots and logs of e2e runs, in test-results/e2e/ where CI can pick them up.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from './browser.ts';
import { repoRoot } from './codeServer.ts';

export const artifactsDir = join(repoRoot, 'test-results', 'e2e');

export function artifactPath(name: string): string {
  mkdirSync(artifactsDir, { recursive: true });
  return join(artifactsDir, name);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = artifactPath(`${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Keeps what explains a failure: a last screenshot and the code-server log. */
export async function saveFailureArtifacts(name: string, page: Page | undefined, logPath: string | undefined): Promise<void> {
  if (page) await screenshot(page, `${name}-failure`).catch((error: unknown) => console.error(`no failure screenshot: ${String(error)}`));
  if (logPath && existsSync(logPath)) copyFileSync(logPath, artifactPath(`${name}-code-server.log`));
}
