// CardDAV against a real Radicale on loopback: discovery, every address book,
// vCard 3 and 4, search from the cache, and incremental sync of a 5,000-card
// book that fetches only what changed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CarddavProvider, carddavUrlProblem } from '../../src/contacts/carddav.ts';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { parseVCards } from '../../src/contacts/vcard.ts';
import { createFetch } from '../../src/contacts/httpFetch.ts';
import { startRadicale, vcard, type RadicaleServer } from '../support/radicale.ts';

/**
 * Radicale answers a 5,000-card REPORT only after it has read every card: on a loaded 2-core
 * machine that silence outlasts the client's 30 s idle limit meant for a person's server, so the
 * big book is read with a limit for this machine, not the product's.
 */
const LOADED_MACHINE_IDLE_MS = 300_000;

test('a card without FN is named from N', () => {
  assert.deepEqual(parseVCards('BEGIN:VCARD\nVERSION:4.0\nN:Schmidt;Jürgen;;Dr.;\nEMAIL;PREF=2:b@x.example\nitem1.EMAIL;PREF=1:a@x.example\nEND:VCARD\n'), [
    { name: 'Dr. Jürgen Schmidt', emails: ['a@x.example', 'b@x.example'], phones: [] },
  ]);
});

describe('CardDAV with Radicale', () => {
  let radicale: RadicaleServer;
  let work: string;

  before(async () => {
    radicale = await startRadicale();
    work = await radicale.createAddressBook('work', 'Work');
    const home = await radicale.createAddressBook('home', 'Home');
    await radicale.uploadCards(work, [
      vcard({ uid: 'max', fn: 'Max Mustermann', n: 'Mustermann;Max;;;', emails: ['Max.Mustermann@Nordlicht.example', 'max@private.example'], tels: ['+49 171 1234567'], org: 'Nordlicht Software;Vertrieb' }),
      vcard({ uid: 'erika', fn: 'Erika Muster', version: '4.0', emails: ['erika@muster.example'], tels: ['+49-30-9876543'] }),
      'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:folded\r\nFN:Dr. Jürgen\r\n  Schmidt\r\nN:Schmidt;Jürgen;;Dr.;\r\nEMAIL;TYPE=INTERNET:j.schmidt@\r\n example.org\r\nORG:Praxis\\, Schmidt\r\nEND:VCARD\r\n',
    ]);
    await radicale.uploadCards(home, [vcard({ uid: 'oma', fn: 'Oma Else', tels: ['030 1234567'] })]);
  });
  after(() => radicale?.stop());

  test('discovers every address book from the server URL and parses vCard 3 and 4', async () => {
    const provider = new CarddavProvider({ url: radicale.url, user: radicale.user, password: radicale.password });
    assert.deepEqual(await provider.sync(), { books: 2, cards: 4, changed: 4, removed: 0, method: 'full' });
    assert.deepEqual(await provider.search('max'), [
      { name: 'Max Mustermann', emails: ['Max.Mustermann@Nordlicht.example', 'max@private.example'], phones: ['+49 171 1234567'], organization: 'Nordlicht Software' },
    ]);
    assert.deepEqual(await provider.search('erika'), [{ name: 'Erika Muster', emails: ['erika@muster.example'], phones: ['+49-30-9876543'] }]);
    assert.deepEqual(await provider.search('schmidt'), [{ name: 'Dr. Jürgen Schmidt', emails: ['j.schmidt@example.org'], phones: [], organization: 'Praxis, Schmidt' }]);
    assert.deepEqual(await provider.search('oma'), [{ name: 'Oma Else', emails: [], phones: ['030 1234567'] }]);
    assert.deepEqual(await provider.search('9876543'), [{ name: 'Erika Muster', emails: ['erika@muster.example'], phones: ['+49-30-9876543'] }]);
    assert.deepEqual(await provider.search('nobody'), []);
  });

  test('an address book URL means just that book', async () => {
    const provider = new CarddavProvider({ url: work, user: radicale.user, password: radicale.password });
    assert.equal((await provider.sync()).books, 1);
    assert.deepEqual(await provider.search('oma'), []);
  });

  test('plain http only for loopback; a wrong password is reported next to other results', async () => {
    assert.equal(carddavUrlProblem('http://dav.example.org/'), 'http://dav.example.org/ must use https:// (plain http is allowed only for this machine)');
    assert.equal(carddavUrlProblem('https://dav.example.org/'), undefined);
    assert.equal(carddavUrlProblem('http://[::1]:5232/'), undefined);
    assert.throws(() => new CarddavProvider({ url: 'http://dav.example.org/' }), { message: 'http://dav.example.org/ must use https:// (plain http is allowed only for this machine)' });
    const good = new CarddavProvider({ url: work, user: radicale.user, password: radicale.password });
    const bad = new CarddavProvider({ url: radicale.url, user: radicale.user, password: 'wrong' });
    const directory = new ContactDirectory([good, bad], { country: 'DE' });
    const found = await directory.searchAll('erika');
    assert.deepEqual(found.contacts, [{ name: 'Erika Muster', email: 'erika@muster.example', phone: '+49309876543', emails: ['erika@muster.example'], phones: ['+49309876543'], sources: [good.source] }]);
    assert.equal(found.failures.length, 1);
    assert.equal(found.failures[0].source, `carddav:erika@127.0.0.1:${new URL(radicale.url).port}`);
    assert.match(found.failures[0].message, /401|Unauthorized|principal/i);
  });
});

test('incremental sync of 5,000 cards fetches only the added and the changed card', async () => {
  const radicale = await startRadicale();
  try {
    const book = await radicale.createAddressBook('big', 'Big');
    await radicale.uploadCards(book, Array.from({ length: 5000 }, (_, i) => vcard({ uid: `p${i}`, fn: `Person ${i}`, emails: [`person${i}@big.example`], tels: [`+49 30 ${1000000 + i}`] })));
    const counter = { requests: 0, bytesReceived: 0 };
    const provider = new CarddavProvider({ url: radicale.url, user: radicale.user, password: radicale.password },
      { fetch: createFetch(counter, { timeoutMs: LOADED_MACHINE_IDLE_MS }), maxAgeMs: 60_000 });
    assert.deepEqual(await provider.sync(), { books: 1, cards: 5000, changed: 5000, removed: 0, method: 'full' });
    const initial = { ...counter };
    assert.ok(initial.bytesReceived > 1_000_000, `initial sync read ${initial.bytesReceived} bytes`);

    // Searching reads the cache: no request at all.
    assert.deepEqual(await provider.search('person4711@'), [{ name: 'Person 4711', emails: ['person4711@big.example'], phones: ['+49 30 1004711'] }]);
    assert.deepEqual(counter, initial);

    await radicale.putCard(book, 'new.vcf', vcard({ uid: 'new', fn: 'Neue Kundin', emails: ['neu@big.example'] }));
    await radicale.putCard(book, 'p7.vcf', vcard({ uid: 'p7', fn: 'Person Seven', emails: ['seven@big.example'] }));
    assert.deepEqual(await provider.sync(), { books: 1, cards: 5001, changed: 2, removed: 0, method: 'sync-token' });
    const incremental = { requests: counter.requests - initial.requests, bytes: counter.bytesReceived - initial.bytesReceived };
    // One sync-collection REPORT and one multiget of the two cards.
    assert.equal(incremental.requests, 2);
    assert.ok(incremental.bytes < 5_000, `incremental sync read ${incremental.bytes} bytes`);
    assert.deepEqual(await provider.search('neue'), [{ name: 'Neue Kundin', emails: ['neu@big.example'], phones: [] }]);
    assert.deepEqual(await provider.search('seven'), [{ name: 'Person Seven', emails: ['seven@big.example'], phones: [] }]);
    assert.deepEqual(await provider.search('person7@'), []);
    assert.deepEqual(await provider.sync(), { books: 1, cards: 5001, changed: 0, removed: 0, method: 'unchanged' });
  } finally {
    await radicale.stop();
  }
});
