// One headless Chromium per test file: launched once the test VS Code is known to be
// provisioned, closed when the file's tests are done.
import { after, before } from 'node:test';
import { launchChromium, type Browser } from './browser.ts';
import { vscodeServer } from './codeServer.ts';

/** Registers the file's before/after hooks; call the result inside a test to get the browser. */
export function fileBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    vscodeServer.assertProvisioned();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet (use it inside a test)');
    return browser;
  };
}
