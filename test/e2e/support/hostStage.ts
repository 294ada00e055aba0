// The `host` stage of npm test: every in-host suite test/host/*.host.ts runs inside the real
// extension host (code-server, headless Chromium, the payload route) with this repository
// as the development extension; each of its checks becomes one test here.
//   node_modules/.bin/node --test test/e2e/support/hostStage.ts
// A suite that waits for a person's clicks is driven by an e2e test instead: any suite whose
// file name a test/e2e/*.ts file mentions is left to that test (and only named here).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, type Browser } from './browser.ts';
import { repoRoot, vscodeServer } from './codeServer.ts';
import { runHostSuite } from './hostSuite.ts';

const hostDir = join(repoRoot, 'test', 'host');
const suites = readdirSync(hostDir).filter((name) => name.endsWith('.host.ts')).sort();

const e2eDir = join(repoRoot, 'test', 'e2e');
const e2eSources = readdirSync(e2eDir).filter((name) => name.endsWith('.ts')).map((name) => join(e2eDir, name));

/** The e2e file that drives `suite` itself, if any. */
function drivenBy(suite: string): string | undefined {
  const driver = e2eSources.find((path) => readFileSync(path, 'utf8').includes(suite));
  return driver && relative(repoRoot, driver);
}

let browser: Browser;

before(async () => {
  vscodeServer.assertProvisioned();
  // npm test built dist/ already (XOS_BUILT); alone, this stage builds it.
  if (process.env.XOS_BUILT !== '1') {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
  }
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

for (const file of suites) {
  const name = basename(file, '.host.ts');
  const driver = drivenBy(file);
  // Such a suite runs in the e2e stage, driven by its test: not a skip, just not here.
  if (driver) { console.log(`# ${file} runs in the e2e stage, driven by ${driver}`); continue; }
  test(`in-host suite ${file}`, { timeout: 300_000 }, async (t) => {
    const run = await runHostSuite({ browser, entry: join(hostDir, file), name: `host-${name}`, defines: { XOS_HOST_MODE: 'board' } });
    for (const check of run.outcome?.checks ?? []) {
      await t.test(check.name, () => assert.equal(check.ok, true, check.error));
    }
    // Both must agree: a crashed extension host reports 0 too.
    assert.deepEqual({ exitCode: run.exitCode, wroteOutcome: run.outcome !== undefined, passed: run.outcome?.passed },
      { exitCode: 0, wroteOutcome: true, passed: true }, `host log:\n${run.log.slice(-40).join('\n')}`);
  });
}
