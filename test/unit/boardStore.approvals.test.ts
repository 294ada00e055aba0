// The pending approvals in the Board's store (webview/state.ts), driven in Node through the fake
// host: the list as the host sends it, the person's decision sent once (a second while it is under
// way is not sent, nor one of an approval not listed), its buttons waiting until the outcome came
// or the approval left the list, the host's own "deciding" kept, and the request to see the list.
// And the words of the list that depend on the clock (webview/components/approvalText.ts).
// The <xos-approval-list> element itself renders only in a browser: the Board has no DOM test
// setup in Node, its rendering is covered by the browser suites.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as protocol from '../../src/board/protocol.ts';
import { webviewTexts } from '../../src/board/view.ts';
import { BoardStore, type Topic } from '../../webview/state.ts';
import { askedTime, expiryText, nextExpiryChange, questionName } from '../../webview/components/approvalText.ts';
import { FakeBoardHost } from '../support/fakeBoardHost.ts';

function item(id: string, extra: Partial<protocol.ApprovalItem> = {}): protocol.ApprovalItem {
  return {
    id, kind: 'save', question: `Save changes to Person ${id}? City: Bonn → Kiel`, requester: 'The agent for anna',
    requestedAt: '2026-12-05T09:00:00.000Z', expiresAt: '2026-12-05T09:30:00.000Z', deciding: false, ...extra,
  };
}

function setup() {
  const host = new FakeBoardHost();
  const store = new BoardStore(host, { lang: 'en', setLang: () => {} });
  const seen: Topic[] = [];
  store.subscribe(['approvals'], () => seen.push('approvals'));
  const decisions = () => host.sent.filter((m) => m.method === protocol.decideApproval.method).map((m) => m.params);
  return { host, store, seen, decisions };
}

describe('the pending approvals in the Board store', () => {
  test('the list as sent; a decision is sent once and its buttons wait until the outcome came', () => {
    const { host, store, seen, decisions } = setup();
    host.send(protocol.approvals, { approvals: [item('12'), item('13')] });
    assert.deepEqual(store.approvals.items.map((a) => a.id), ['12', '13']);
    assert.deepEqual(seen, ['approvals']);

    assert.equal(store.approvals.decide('12', 'approve'), true);
    assert.equal(store.approvals.deciding('12'), true);
    assert.equal(store.approvals.deciding('13'), false, 'only the decided one waits');
    assert.equal(store.approvals.decide('12', 'approve'), false, 'a double click is not sent');
    assert.equal(store.approvals.decide('12', 'decline'), false, 'nor another decision of it');
    assert.deepEqual(decisions(), [{ id: '12', decision: 'approve' }]);

    // A failed outcome: the approval is still listed, its buttons act again.
    host.send(protocol.approvalDecided, { id: '12', outcome: 'failed' });
    assert.equal(store.approvals.deciding('12'), false);
    assert.equal(store.approvals.decide('12', 'decline'), true);
    assert.deepEqual(decisions().at(-1), { id: '12', decision: 'decline' });
  });

  test('an approval that left the list ends its decision; one not listed is not sent; the host\'s "deciding" counts', () => {
    const { host, store, decisions } = setup();
    host.send(protocol.approvals, { approvals: [item('12'), item('13', { deciding: true })] });
    assert.equal(store.approvals.decide('99', 'approve'), false);
    assert.equal(store.approvals.deciding('13'), true, 'decided from an earlier page, still under way');
    assert.equal(store.approvals.decide('13', 'approve'), false);
    store.approvals.decide('12', 'approve');
    host.send(protocol.approvals, { approvals: [item('13')] });
    assert.equal(store.approvals.deciding('12'), false);
    assert.equal(store.approvals.deciding('13'), false);
    // Listed again (say it could not be carried out and stays): it can be decided again.
    host.send(protocol.approvals, { approvals: [item('12'), item('13')] });
    assert.equal(store.approvals.decide('12', 'approve'), true);
    assert.deepEqual(decisions(), [{ id: '12', decision: 'approve' }, { id: '12', decision: 'approve' }]);
  });

  test('Approve sends the hash of the write the list showed: the host writes only that', () => {
    const { host, store, decisions } = setup();
    host.send(protocol.approvals, { approvals: [item('12', { hash: 'a'.repeat(64) })] });
    store.approvals.decide('12', 'approve');
    assert.deepEqual(decisions(), [{ id: '12', decision: 'approve', hash: 'a'.repeat(64) }]);
    // The list shows the request anew (the person changed the grid): the next decision carries the new hash.
    host.send(protocol.approvalDecided, { id: '12', outcome: 'failed' });
    host.send(protocol.approvals, { approvals: [item('12', { hash: 'b'.repeat(64) })] });
    store.approvals.decide('12', 'approve');
    assert.deepEqual(decisions().at(-1), { id: '12', decision: 'approve', hash: 'b'.repeat(64) });
    // The list component passes the hash of the question as it rendered it: that one is sent.
    host.send(protocol.approvalDecided, { id: '12', outcome: 'failed' });
    store.approvals.decide('12', 'approve', 'c'.repeat(64));
    assert.deepEqual(decisions().at(-1), { id: '12', decision: 'approve', hash: 'c'.repeat(64) });
    assert.equal(protocol.decideApproval.guard?.({ id: '12', decision: 'approve', hash: 'x'.repeat(129) }), false, 'an over-long hash is dropped');
  });

  test('the list is open until the person closes it; their request to see it opens it and asks for focus once', () => {
    const { host, store, seen } = setup();
    assert.equal(store.approvals.open, true);
    store.approvals.setOpen(false);
    assert.equal(store.approvals.open, false);
    assert.equal(store.approvals.takeReveal(), false);
    host.send(protocol.revealApprovals, {});
    assert.equal(store.approvals.open, true);
    assert.equal(store.approvals.takeReveal(), true);
    assert.equal(store.approvals.takeReveal(), false, 'focus is asked for once per request');
    assert.deepEqual(seen, ['approvals', 'approvals']);
  });
});

describe('the words of the approvals list', () => {
  const texts = webviewTexts('en');
  const german = webviewTexts('de');
  const number = new Intl.NumberFormat('en');
  const expires = '2026-12-05T09:30:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  test('"expires in 12 min", less than a minute, expired; in German too', () => {
    assert.equal(expiryText(expires, at('2026-12-05T09:17:30Z'), texts, number), 'expires in 12 min');
    assert.equal(expiryText(expires, at('2026-12-05T09:29:01Z'), texts, number), 'expires in less than a minute');
    assert.equal(expiryText(expires, at('2026-12-05T09:30:00Z'), texts, number), 'expired');
    assert.equal(expiryText('not a date', at('2026-12-05T09:30:00Z'), texts, number), 'expired');
    assert.equal(expiryText(expires, at('2026-12-05T09:17:30Z'), german, number), 'läuft in 12 Min. ab');
  });

  test('the next change of an expiry text is at the next minute boundary of the soonest one', () => {
    const now = at('2026-12-05T09:17:30Z');
    assert.equal(nextExpiryChange([expires], now), 30_000);
    assert.equal(nextExpiryChange([expires, '2026-12-05T09:20:40.000Z'], now), 10_000);
    assert.equal(nextExpiryChange(['2026-12-05T09:18:30.000Z'], now), 60_000);
    assert.equal(nextExpiryChange(['2026-12-05T09:00:00.000Z'], now), undefined, 'an expired one changes no more');
    assert.equal(nextExpiryChange([], now), undefined);
  });

  test('a button\'s accessible name carries the question, not the changes after it', () => {
    assert.equal(texts.approveLabel.replace('{question}', questionName('Save changes to Person 12? City: Bonn → Kiel')), 'Approve: Save changes to Person 12?');
    assert.equal(questionName('Send this mail to a@b.example? Subject: Hi.'), 'Send this mail to a@b.example?');
    assert.equal(questionName('Delete Person 3.\nIt has 2 invoices.'), 'Delete Person 3.');
    const long = questionName(`Save ${'x'.repeat(400)}`);
    assert.equal(long.length, 160);
    assert.ok(long.endsWith('…'));
  });

  test('when it was asked: the time today, date and time before', () => {
    const asked = '2026-12-05T09:05:00.000Z';
    const today = askedTime(asked, at('2026-12-05T10:00:00Z'), 'en');
    const earlier = askedTime(asked, at('2026-12-07T10:00:00Z'), 'en');
    assert.equal(today, new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(new Date(asked)));
    assert.ok(earlier.length > today.length && earlier.includes(today), earlier);
    assert.equal(askedTime('garbage', 0, 'en'), 'garbage');
  });
});
