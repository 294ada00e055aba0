// Stored approvals on the browser Board, end to end: the built xos-mcp over stdio, its agent a
// client pinned to protocol 2026-07-28 (no MCP session), in ten conversations. Each asks to save
// ten person records (xos_schema, xos_query, xos_ui_change_required, xos_ui_save): a hundred
// pending approvals, answered at once with their ids (xos-mcp allows 100 with --pending-approvals:
// over stdio the process is the one credential all ten share). The first 25 are asked of an xos-mcp
// whose requests wait a minute, the rest of one whose requests wait longer; each is killed (SIGKILL)
// and started again on the data folder: all hundred still wait. On a phone-sized Board page (390 × 844) the
// person approves 50 and declines 25 by the buttons' names ("Approve: <question>"), and lets 25
// expire; the page never scrolls sideways. Exactly the 50 are written (record versions and the
// audit trail), and the agent's calls with `approval` say approved, declined or expired.
// Then void: a record changed after the request is never written by its approval — changed while
// xos-mcp runs, the change feed takes the request off the Board; changed while xos-mcp was down,
// Approve on the Board says it was not written.
//   npm run build && npm run provision:vscode && node --test test/e2e/browserApprovals.e2e.ts
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { buildAuditQuery } from '../../src/graphql/requests.ts';
import { CONVERSATION_META_KEY } from '../../src/mcp/session.ts';
import { eraClient } from '../support/mcpClient.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { launchChromium, type Browser, type Locator, type Page } from './support/browser.ts';
import { startXosMcp, type StartedXosMcp } from './support/xosMcp.ts';

const AGENT = 'xos-approvals-e2e';
/**
 * How long the 75 the person decides wait: XOS's default, longer than the test may run (300 s). The
 * hundred requests, two restarts and 75 decisions (≈ 1 s each: the buttons rest 0.7 s after the
 * list changed) take ≈ 90 s here and twice that on a loaded machine: none of them may expire on
 * the way, however slow the machine.
 */
const APPROVAL_SECONDS = 900;
/** How long the 25 left to expire wait: past the Board listing all hundred (≈ 10 s, on a busy machine ≈ 25 s), and they expire while the person decides the others, so nobody waits for them. */
const EXPIRING_SECONDS = 60;
const CONVERSATIONS = 10;
const SAVES_PER_CONVERSATION = 10;
/** The first requested expire undecided; of the rest, every third (by request order) is declined. */
const EXPIRING = 25;
const PHONE = { width: 390, height: 844 };
const FIRST_ID = 11;
const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';
const PANEL = 'Waiting for your decision';
/** The audit trail's longest page. */
const AUDIT_PAGE = 500;

interface Reply { readonly text: string; readonly isError: boolean }
type Decision = 'approve' | 'decline' | 'expire';
interface Request { readonly record: string; readonly conversation: string; readonly city: string; readonly approval: string; readonly expiresAt: number; readonly decision: Decision }
interface Asked { readonly approval: string; readonly expiresAt: number }
interface Stored { readonly city: string | null; readonly version: number }

let browser: Browser;
const folders: string[] = [];
const running: StartedXosMcp[] = [];

before(async () => {
  browser = await launchChromium();
});
after(async () => {
  for (const xosMcp of running) await xosMcp.client.close().catch(() => {});
  await browser?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'xos-mcp-e2e-approvals-'));
  folders.push(folder);
  return folder;
}

/** xos-mcp over stdio on `data`, its client pinned to 2026-07-28 (a request without a session stores its write). */
async function start(data: string, args: readonly string[] = []): Promise<StartedXosMcp> {
  const xosMcp = await startXosMcp({ name: AGENT, client: eraClient(AGENT, 'modern'), data, args: ['--board-port', '0', ...args] });
  assert.equal(xosMcp.client.getProtocolEra(), 'modern');
  running.push(xosMcp);
  return xosMcp;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops xos-mcp hard, as a crash or a killed terminal would: no shutdown of its own. */
async function kill(xosMcp: StartedXosMcp): Promise<void> {
  process.kill(xosMcp.pid, 'SIGKILL');
  await until('xos-mcp to be gone', async () => !alive(xosMcp.pid));
  await xosMcp.client.close().catch(() => {});
}

/** One agent call in a conversation (its id in `_meta`, as VS Code names chats). */
async function call(xosMcp: StartedXosMcp, conversation: string, name: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const result = await xosMcp.client.callTool({ name, arguments: args, _meta: { [CONVERSATION_META_KEY]: conversation } });
  const content = result.content as Array<{ text?: string }>;
  return { text: content.map((c) => c.text ?? '').join(''), isError: result.isError === true };
}

async function handleOf(xosMcp: StartedXosMcp, conversation: string): Promise<string> {
  const schema = await call(xosMcp, conversation, 'xos_schema');
  assert.equal(schema.isError, false, schema.text);
  return (JSON.parse(schema.text) as { handle: string }).handle;
}

/** Shows the record, proposes a city and asks to save: answered at once with the approval's id and when it expires. */
async function requestSave(xosMcp: StartedXosMcp, conversation: string, handle: string, record: string, city: string): Promise<Asked> {
  const shown = await call(xosMcp, conversation, 'xos_query', { context: 'person_detail', query: `{ person_detail(id: "${record}") { ${DETAIL_FIELDS} } }`, handle });
  assert.equal(shown.isError, false, shown.text);
  const proposed = await call(xosMcp, conversation, 'xos_ui_change_required', { context: 'person_detail', changes: { city }, handle });
  assert.equal(proposed.isError, false, proposed.text);
  const asked = await call(xosMcp, conversation, 'xos_ui_save', { handle });
  assert.equal(asked.isError, false, asked.text);
  assert.match(asked.text, new RegExp(`^Nothing is written yet\\. Waiting for the person's decision on: save changes to person "${record}" \\(`));
  const approval = /Approval id: "([^"]+)"/.exec(asked.text)?.[1];
  const expiresAt = Date.parse(/the request expires at (\S+), and nothing is written then/.exec(asked.text)?.[1] ?? '');
  assert.ok(approval && expiresAt > Date.now(), asked.text);
  return { approval, expiresAt };
}

/** The database xos-mcp keeps in its data folder, opened beside it (another process on the same SQLite file). */
async function withDatabase<T>(data: string, use: (backend: Backend) => Promise<T>): Promise<T> {
  const backend = await startBackend({ ast: demoApp(), dsn: `sqlite:${join(data, 'xos-mcp', 'xos.db')}` });
  try {
    return await use(backend);
  } finally {
    await backend.close();
  }
}

async function stored(backend: Backend, record: string): Promise<Stored> {
  const result = await backend.api.run({ query: 'query ($id: ID!) { person_detail(id: $id) { city version } }', variables: { id: record } });
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return { ...(result.data as { person_detail: Stored }).person_detail };
}

/** The records of person writes the audit trail names as made by approving a stored approval, one per write. */
async function approvedWrites(backend: Backend): Promise<string[]> {
  const records: string[] = [];
  for (let offset = 0; ; offset += AUDIT_PAGE) {
    const request = buildAuditQuery({ entity: 'person' }, AUDIT_PAGE, offset);
    const result = await backend.api.run({ query: request.query, variables: request.variables });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    const page = (result.data as Record<string, Array<{ record_id: string; approval: string | null }>>)[request.root];
    records.push(...page.filter((entry) => entry.approval?.includes('[approval ')).map((entry) => entry.record_id));
    if (page.length < AUDIT_PAGE) return records.sort();
  }
}

/** Another path writes the record: a GraphQL mutation on the embedded backend, version-checked. */
async function changeElsewhere(backend: Backend, record: string, city: string): Promise<void> {
  const { version } = await stored(backend, record);
  const result = await backend.api.run({
    query: 'mutation ($id: ID!, $version: Int!, $city: String) { update_person(id: $id, version: $version, set: { city: $city }) { version } }',
    variables: { id: record, version, city },
  });
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
}

/** Waits for a condition of the page (polled), never for a fixed time. */
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The Board page, phone-sized, opened from the link. */
async function openBoard(link: string): Promise<Page> {
  const page = await browser.newPage({ viewport: PHONE });
  await goto(page, link);
  return page;
}

/** Opens the link in the page; every frame the page notes how far it could scroll sideways. */
async function goto(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.evaluate(() => {
    const seen = { overflow: 0, scrolledX: 0, frames: 0 };
    (window as unknown as { xosSideways: typeof seen }).xosSideways = seen;
    const sample = () => {
      const root = document.scrollingElement ?? document.documentElement;
      seen.overflow = Math.max(seen.overflow, root.scrollWidth - window.innerWidth);
      seen.scrolledX = Math.max(seen.scrolledX, window.scrollX);
      seen.frames++;
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
}

async function sideways(page: Page): Promise<{ overflow: number; scrolledX: number; frames: number }> {
  return page.evaluate(() => (window as unknown as { xosSideways: { overflow: number; scrolledX: number; frames: number } }).xosSideways);
}

function panel(page: Page): Locator {
  return page.getByRole('region', { name: PANEL, exact: true });
}

function listed(page: Page): Locator {
  return panel(page).getByRole('listitem');
}

/** One request on the Board: its item (by the approval's id) and its button, found by its accessible name. */
function decisionButton(page: Page, decision: 'approve' | 'decline', record: string, approval: string): { item: Locator; button: Locator } {
  const item = panel(page).locator(`li[data-id="${approval}"]`);
  // The question names the record by its name, then its id: "Save changes to Person Anna Muster (#12)?".
  const name = new RegExp(`^${decision === 'approve' ? 'Approve' : 'Decline'}: Save changes to Person \\S.* \\(#${record}\\)\\?$`);
  return { item, button: item.getByRole('button', { name }) };
}

/**
 * Clicks Approve or Decline of one request and waits until it left the list. The buttons do
 * nothing for a moment after the list changed (question-timing.ts; aria-disabled meanwhile), so a
 * click that met such a moment is lost: when the request neither started deciding nor left, it is
 * clicked again (a second click of one being decided does nothing: no double submit).
 */
async function decide(page: Page, decision: 'approve' | 'decline', record: string, approval: string): Promise<void> {
  const { item, button } = decisionButton(page, decision, record, approval);
  await item.waitFor({ state: 'visible', timeout: 10_000 });
  const gone = async () => (await item.count()) === 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    await until(`${decision} of person ${record} to take a click`, async () => await gone() || (await attribute(button, 'aria-disabled')) === 'false');
    if (await gone()) break;
    await button.click({ timeout: 5_000 }).catch(() => undefined);
    const started = await until(`the decision of person ${record} to start`, async () => await gone() || (await attribute(item, 'aria-busy')) === 'true', 5_000)
      .then(() => true, () => false);
    if (started) break;
  }
  await until(`person ${record} to leave the list`, gone, 30_000);
}

/** An attribute of an element that may be gone meanwhile (then null, at once). */
async function attribute(element: Locator, name: string): Promise<string | null> {
  return await element.getAttribute(name, { timeout: 1_000 }).catch(() => null);
}

async function failed(t: TestContext, name: string, page: Page | undefined, xosMcp: StartedXosMcp | undefined): Promise<void> {
  await saveFailureArtifacts(name, page, undefined);
  if (xosMcp) t.diagnostic(xosMcp.log());
}

describe('stored approvals on the browser Board (xos-mcp, protocol 2026-07-28)', () => {
  test('a hundred requests outlive a killed xos-mcp; on a phone the person approves 50, declines 25 and lets 25 expire: exactly 50 written', { timeout: 300_000 }, async (t) => {
    const data = dataFolder();
    const waitingFor = (seconds: number) => ['--approval-seconds', String(seconds), '--pending-approvals', '100'];
    let xosMcp: StartedXosMcp | undefined = await start(data, waitingFor(EXPIRING_SECONDS));
    let page: Page | undefined;
    const began = Date.now();
    const lap = (what: string) => t.diagnostic(`${what}: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    try {
      const records = Array.from({ length: CONVERSATIONS * SAVES_PER_CONVERSATION }, (_, i) => String(FIRST_ID + i));
      const before = await withDatabase(data, async (backend) => new Map(await Promise.all(records.map(async (record) => [record, await stored(backend, record)] as const))));

      // Ten conversations, ten saves each, on a hundred records: the Board shows one record at a time, so one save at a time.
      const requests: Request[] = [];
      for (let c = 0; c < CONVERSATIONS; c++) {
        const conversation = `chat-${c + 1}`;
        let handle = await handleOf(xosMcp, conversation);
        for (let s = 0; s < SAVES_PER_CONVERSATION; s++) {
          const order = requests.length;
          if (order === EXPIRING) {
            // The rest wait longer: asked of xos-mcp killed and started again so (the conversation goes on).
            await kill(xosMcp);
            xosMcp = await start(data, waitingFor(APPROVAL_SECONDS));
            handle = await handleOf(xosMcp, conversation);
          }
          const record = records[order];
          const city = `Approval-${record}`;
          const { approval, expiresAt } = await requestSave(xosMcp, conversation, handle, record, city);
          const decision: Decision = order < EXPIRING ? 'expire' : order % 3 === 0 ? 'decline' : 'approve';
          requests.push({ record, conversation, city, approval, expiresAt, decision });
        }
      }
      lap('100 requests');
      const count = (decision: Decision) => requests.filter((r) => r.decision === decision).length;
      assert.deepEqual([count('approve'), count('decline'), count('expire')], [50, 25, 25]);
      assert.equal(new Set(requests.map((r) => r.approval)).size, 100, 'every request has an id of its own');
      const waiting = await call(xosMcp, requests[0].conversation, 'xos_ui_save', { handle: await handleOf(xosMcp, requests[0].conversation), approval: requests[0].approval });
      assert.match(waiting.text, /^Still waiting for the person's decision/);
      await withDatabase(data, async (backend) => {
        for (const record of records) assert.deepEqual(await stored(backend, record), before.get(record), 'a request writes nothing');
      });

      // Killed, and started again on the same data folder: the hundred still wait.
      await kill(xosMcp);
      xosMcp = await start(data, waitingFor(APPROVAL_SECONDS));
      lap('xos-mcp started again');

      page = await openBoard(xosMcp.link);
      await panel(page).waitFor({ state: 'visible', timeout: 20_000 });
      await until('the hundred requests on the Board', async () => (await listed(page!).count()) === 100);
      assert.match(await panel(page).innerText(), /Save changes to Person \S.* \(#11\)\? City: \S.* → Approval-11\n/, 'the question in full: who, which field, from and to');
      await screenshot(page, 'browser-approvals-phone');
      lap('the Board lists 100');

      // Oldest first, as listed: the later ones wait longest.
      for (const request of requests) {
        if (request.decision === 'expire') continue;
        // Listed since the Board showed all hundred: gone now means a click meant for another one decided it.
        const item: Locator = decisionButton(page, request.decision, request.record, request.approval).item;
        if (await item.count() !== 1) {
          // What became of it, as its agent learns it: decided by a click meant for another, voided, or expired.
          const outcome = await call(xosMcp, request.conversation, 'xos_ui_save', { handle: await handleOf(xosMcp, request.conversation), approval: request.approval });
          assert.fail(`the request for person ${request.record} left the list before the person decided it (${new Date().toISOString()}; it expires at ${new Date(request.expiresAt).toISOString()}); its agent is told: ${outcome.text}`);
        }
        await decide(page, request.decision, request.record, request.approval);
      }
      lap('75 decided');
      const last = requests.at(-1)!;
      assert.equal(last.decision, 'decline');
      await page.locator('xos-status-strip [role="status"]', { hasText: 'Declined: nothing was written.' }).waitFor({ state: 'visible', timeout: 10_000 });
      const decided = requests.filter((r) => r.decision !== 'expire');
      assert.ok(decided.every((r) => r.expiresAt > Date.now()), 'every decision was taken before its request expired');
      // The rest expire undecided and leave the list by themselves at their expiry (the desk's timer,
      // not the housekeeping once a minute).
      const lastExpiry = Math.max(...requests.filter((r) => r.decision === 'expire').map((r) => r.expiresAt));
      await panel(page).waitFor({ state: 'hidden', timeout: Math.max(0, lastExpiry - Date.now()) + 15_000 });
      lap('the list is empty');

      // What the agents learn by calling again, each in its conversation.
      const handles = new Map<string, string>();
      for (const request of requests) {
        const handle = handles.get(request.conversation) ?? await handleOf(xosMcp, request.conversation);
        handles.set(request.conversation, handle);
        const outcome = await call(xosMcp, request.conversation, 'xos_ui_save', { handle, approval: request.approval });
        const expected = {
          approve: new RegExp(`^The person approved \\(approval "${request.approval}"\\)\\. Saved person ${request.record} \\(version 1 -> 2\\)\\. Stored: city: "${request.city}"\\.`),
          decline: new RegExp(`^The person declined \\(approval "${request.approval}"\\); nothing was written\\.`),
          expire: new RegExp(`^The request expired at \\S+ before the person decided \\(approval "${request.approval}"\\); nothing was written\\.`),
        }[request.decision];
        assert.match(outcome.text, expected);
        assert.equal(outcome.isError, request.decision !== 'approve', outcome.text);
      }

      // Exactly the 50 approved are written, once each; the declined and expired are as they were.
      await withDatabase(data, async (backend) => {
        for (const request of requests) {
          const now = await stored(backend, request.record);
          const was = before.get(request.record)!;
          assert.deepEqual(now, request.decision === 'approve' ? { city: request.city, version: was.version + 1 } : was, `person ${request.record} (${request.decision})`);
        }
        assert.deepEqual(await approvedWrites(backend), requests.filter((r) => r.decision === 'approve').map((r) => r.record).sort());
      });

      const seen = await sideways(page);
      assert.ok(seen.frames > 100, `the page was watched (${seen.frames} frames)`);
      assert.deepEqual({ overflow: Math.max(0, seen.overflow), scrolledX: seen.scrolledX }, { overflow: 0, scrolledX: 0 }, 'at 390 px the page never scrolls sideways');
      lap('done');
    } catch (error) {
      await failed(t, 'browser-approvals', page, xosMcp);
      throw error;
    } finally {
      await page?.close().catch(() => {});
    }
  });

  test('a record changed after the request is not written: live, the request leaves the Board; changed while xos-mcp was down, Approve says so', { timeout: 120_000 }, async (t) => {
    const data = dataFolder();
    let xosMcp: StartedXosMcp | undefined = await start(data);
    let page: Page | undefined;
    const conversation = 'chat-void';
    try {
      page = await openBoard(xosMcp.link);
      let handle = await handleOf(xosMcp, conversation);

      // Changed while xos-mcp runs: the change feed voids the request, which leaves the Board by itself.
      const { approval: live } = await requestSave(xosMcp, conversation, handle, '7', 'Approved-Live');
      const shown = decisionButton(page, 'approve', '7', live).button;
      await shown.waitFor({ state: 'visible', timeout: 20_000 });
      await withDatabase(data, (backend) => changeElsewhere(backend, '7', 'Elsewhere-Live'));
      await shown.waitFor({ state: 'hidden', timeout: 20_000 });
      const liveOutcome = await call(xosMcp, conversation, 'xos_ui_save', { handle, approval: live });
      assert.deepEqual(liveOutcome, {
        text: `Not written: the record was changed after your request (approval "${live}"); nothing was written. Show it again with xos_render and ask the person again.`,
        isError: true,
      });

      // Changed while xos-mcp was down (no feed saw it): the request still waits, and Approve finds the record changed.
      const { approval: offline } = await requestSave(xosMcp, conversation, handle, '8', 'Approved-Offline');
      await decisionButton(page, 'approve', '8', offline).button.waitFor({ state: 'visible', timeout: 20_000 });
      await kill(xosMcp);
      await withDatabase(data, (backend) => changeElsewhere(backend, '8', 'Elsewhere-Offline'));
      xosMcp = await start(data);
      await goto(page, xosMcp.link);
      await decide(page, 'approve', '8', offline);
      await page.locator('xos-status-strip [role="status"]', { hasText: 'Not written: Person 8 was changed after the request.' }).waitFor({ state: 'visible', timeout: 20_000 });
      await screenshot(page, 'browser-approvals-void');
      handle = await handleOf(xosMcp, conversation);
      const offlineOutcome = await call(xosMcp, conversation, 'xos_ui_save', { handle, approval: offline });
      assert.deepEqual(offlineOutcome, {
        text: `Not written: the record was changed after your request (approval "${offline}"); nothing was written. Show it again with xos_render and ask the person again.`,
        isError: true,
      });

      await withDatabase(data, async (backend) => {
        assert.equal((await stored(backend, '7')).city, 'Elsewhere-Live');
        assert.equal((await stored(backend, '8')).city, 'Elsewhere-Offline');
        assert.deepEqual(await approvedWrites(backend), [], 'no approval wrote anything');
      });
      const seen = await sideways(page);
      assert.deepEqual({ overflow: Math.max(0, seen.overflow), scrolledX: seen.scrolledX }, { overflow: 0, scrolledX: 0 });
    } catch (error) {
      await failed(t, 'browser-approvals-void', page, xosMcp);
      throw error;
    } finally {
      await page?.close().catch(() => {});
    }
  });
});
