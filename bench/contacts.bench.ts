// npm run bench:contacts — CardDAV contacts on a 10,000-card Radicale book:
// the provider's initial and incremental sync against a raw PROPFIND +
// addressbook-query REPORT of the same book with plain node:http (the least
// any client must do to read the book), and search latency from the cache.
// Ratios are the result; machines are noisy. This is not a test.
import { request } from 'node:http';
import { CarddavProvider } from '../src/contacts/carddav.ts';
import { startRadicale, vcard, type RadicaleServer } from '../test/support/radicale.ts';

const CARDS = Number(process.env.XOS_BENCH_CARDS ?? 10_000);
const ROUNDS = Number(process.env.XOS_BENCH_ROUNDS ?? 3);
const QUERIES = 200;

const PROPFIND = '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:prop><cs:getctag/><d:sync-token/></d:prop></d:propfind>';
const QUERY_ALL = '<?xml version="1.0" encoding="utf-8"?><card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop></card:addressbook-query>';

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const median = (values: number[]) => percentile(values, 50);

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** One WebDAV request with plain node:http; resolves with the size of the answer. */
function dav(radicale: RadicaleServer, method: string, url: string, depth: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { authorization: radicale.authorization, depth, 'content-type': 'application/xml; charset=utf-8', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => (res.statusCode === 207 ? resolve(bytes) : reject(new Error(`${method} ${url}: ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function rawRead(radicale: RadicaleServer, book: string): Promise<number> {
  await dav(radicale, 'PROPFIND', book, '0', PROPFIND);
  return dav(radicale, 'REPORT', book, '1', QUERY_ALL);
}

function person(i: number): string {
  return vcard({ uid: `p${i}`, fn: `Person ${i} Muster`, n: `Muster;Person ${i};;;`, emails: [`person${i}@bench.example`], tels: [`+49 30 ${1_000_000 + i}`], org: i % 7 === 0 ? 'Nordlicht Software' : undefined });
}

async function main(): Promise<void> {
  const radicale = await startRadicale();
  try {
    const book = await radicale.createAddressBook('bench', 'Bench');
    const upload = await time(() => radicale.uploadCards(book, Array.from({ length: CARDS }, (_, i) => person(i))));
    console.log(`uploaded ${CARDS} cards in ${(upload.ms / 1000).toFixed(1)} s; ${ROUNDS} rounds`);

    const raw: number[] = [];
    const initial: number[] = [];
    const incremental: number[] = [];
    let rawBytes = 0;
    let providerBytes = 0;
    let incrementalBytes = 0;
    let provider: CarddavProvider | undefined;
    let providerCounter: { requests: number; bytesReceived: number } | undefined;
    let incrementalMethod = '';
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so neither side always meets a warm server.
      const runRaw = async () => {
        const r = await time(() => rawRead(radicale, book));
        raw.push(r.ms);
        rawBytes = r.value;
      };
      const runInitial = async () => {
        const counter = { requests: 0, bytesReceived: 0 };
        providerCounter = counter;
        provider = new CarddavProvider({ url: radicale.url, user: radicale.user, password: radicale.password }, { counter, maxAgeMs: 3_600_000 });
        const r = await time(() => provider!.sync());
        if (r.value.cards !== CARDS + round) throw new Error(`initial sync saw ${r.value.cards} cards`);
        initial.push(r.ms);
        providerBytes = counter.bytesReceived;
      };
      if (round % 2) { await runRaw(); await runInitial(); } else { await runInitial(); await runRaw(); }

      // One added and one changed card, then the incremental sync.
      await radicale.putCard(book, `added-${round}.vcf`, vcard({ uid: `added-${round}`, fn: `Added ${round}`, emails: [`added${round}@bench.example`] }));
      await radicale.putCard(book, `p${round + 1}.vcf`, vcard({ uid: `p${round + 1}`, fn: `Changed ${round}`, emails: [`changed${round}@bench.example`] }));
      const counter = providerCounter!;
      const bytesBefore = counter.bytesReceived;
      const r = await time(() => provider!.sync());
      if (r.value.changed !== 2) throw new Error(`incremental sync changed ${r.value.changed} cards (${r.value.method})`);
      incremental.push(r.ms);
      incrementalBytes = counter.bytesReceived - bytesBefore;
      incrementalMethod = r.value.method;
    }

    const cached = provider!;
    const queries = Array.from({ length: QUERIES }, (_, i) => {
      const n = (i * 7919) % CARDS;
      return [`person ${n}`, `person${n}@bench`, `${1_000_000 + n}`, 'nordlicht', `nobody-${i}`][i % 5];
    });
    for (const query of queries.slice(0, 10)) await cached.search(query);
    const search: number[] = [];
    for (const query of queries) search.push((await time(() => cached.search(query))).ms);

    const rawMs = median(raw);
    const rows = [
      ['raw PROPFIND + addressbook-query REPORT (node:http)', rawMs, `${(rawBytes / 1e6).toFixed(1)} MB`, '1.00'],
      ['CarddavProvider initial sync (discovery + full read)', median(initial), `${(providerBytes / 1e6).toFixed(1)} MB`, (median(initial) / rawMs).toFixed(2)],
      [`CarddavProvider incremental sync (1 added, 1 changed; ${incrementalMethod})`, median(incremental), `${(incrementalBytes / 1e3).toFixed(1)} kB`, (median(incremental) / rawMs).toFixed(3)],
    ];
    console.log(`\n| ${CARDS.toLocaleString('en')} cards | median (ms) | received | ratio to raw |`);
    console.log('|---|---:|---:|---:|');
    for (const [name, ms, bytes, ratio] of rows) console.log(`| ${name} | ${(ms as number).toFixed(0)} | ${bytes} | ${ratio} |`);
    console.log(`\n| search from the cache (${QUERIES} queries) | p50 (ms) | p99 (ms) |`);
    console.log('|---|---:|---:|');
    console.log(`| CarddavProvider.search | ${percentile(search, 50).toFixed(2)} | ${percentile(search, 99).toFixed(2)} |`);
  } finally {
    await radicale.stop();
  }
}

await main();
