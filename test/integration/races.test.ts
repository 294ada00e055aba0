// Lost updates: an agent loads a record, proposes a change, the person confirms — and
// meanwhile someone else writes the same record. Whatever the timing, the other writer's
// change is never overwritten silently: the save meets CONFLICT, writes nothing and says so.
// Every trial goes through the real tools (in-process MCP client), the real backend and the
// real Board state, on SQLite and on PostgreSQL.
//   XOS_RACE_TRIALS=10000 node --test test/integration/races.test.ts   (default 1000 per store)
import assert from 'node:assert/strict';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer } from '../../src/backend/http.ts';
import { BoardState } from '../../src/board/state.ts';
import { connectRemoteClient, embeddedClient } from '../../src/graphql/client.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, SaveAnswer, SendAnswer, XosClient } from '../../src/core/domain.ts';
import { connectInMemory, type Reply } from '../support/mcpClient.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';

const TRIALS = Number(process.env.XOS_RACE_TRIALS ?? 1000);
const PEOPLE = 240;
const DETAIL = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';

/** When the other writer writes, relative to the agent's load → preview → confirm → save. */
type Timing = 'never' | 'beforeLoad' | 'afterLoad' | 'afterPreview' | 'whileAsked' | 'afterSave';
const TIMINGS: readonly Timing[] = ['never', 'beforeLoad', 'afterLoad', 'afterPreview', 'whileAsked', 'afterSave'];
/** Timings where the other write lands between the agent's load and its save: the save must conflict. */
const BETWEEN: ReadonlySet<Timing> = new Set(['afterLoad', 'afterPreview', 'whileAsked']);


/** A person who says Save, and whose question can run the other writer while it is open. */
class RecordingConfirmer implements Confirmer {
  whileAsked: (() => Promise<void>) | undefined;
  approvals = 0;
  async confirmSave(): Promise<SaveAnswer> {
    await this.whileAsked?.();
    this.approvals++;
    return 'save';
  }
  async confirmSend(): Promise<SendAnswer> {
    return 'cancel';
  }
}

async function toolSession(deps: XosDeps): Promise<(name: string, args?: Record<string, unknown>) => Promise<Reply>> {
  return (await connectInMemory(deps, 'race')).call;
}

/** The other writer: reads the current version, then updates like any honest client. */
async function externalWrite(backend: Backend, id: number, lastname: string): Promise<number> {
  const read = await backend.api.run({ query: `{ person_detail(id: "${id}") { version } }` });
  const version = (read.data as { person_detail: { version: number } }).person_detail.version;
  const written = await backend.api.run({
    query: 'mutation ($id: ID!, $v: Int!, $n: String!) { update_person(id: $id, version: $v, set: { lastname: $n }) { version } }',
    variables: { id: String(id), v: version, n: lastname },
  });
  assert.equal(written.errors, undefined, JSON.stringify(written.errors));
  return (written.data as { update_person: { version: number } }).update_person.version;
}

async function storedPerson(backend: Backend, id: number): Promise<{ lastname: string; city: string | null; version: number }> {
  const result = await backend.api.run({ query: `{ person_detail(id: "${id}") { lastname city version } }` });
  return JSON.parse(JSON.stringify((result.data as Record<string, unknown>).person_detail));
}

interface Tally { trials: number; saved: number; conflicts: number; silentOverwrites: number; byTiming: Record<string, number> }

async function raceTrials(backend: Backend): Promise<Tally> {
  const tally: Tally = { trials: 0, saved: 0, conflicts: 0, silentOverwrites: 0, byTiming: {} };
  let trial = 0;
  await fc.assert(fc.asyncProperty(
    fc.integer({ min: 1, max: PEOPLE }),
    fc.constantFrom(...TIMINGS),
    fc.boolean(),
    async (id, timing, sameField) => {
      trial++;
      const board = new BoardState();
      const confirmer = new RecordingConfirmer();
      const call = await toolSession({ client: embeddedClient(backend), board, confirmer });
      const theirs = `Extern-${trial}`;
      const mine = { city: `Agentstadt-${trial}`, ...(sameField ? { lastname: `Agent-${trial}` } : {}) };
      const other = () => externalWrite(backend, id, theirs);

      assert.equal((await call('xos_schema')).isError, false);
      if (timing === 'beforeLoad') await other();
      const loaded = await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "${id}") { ${DETAIL} } }` });
      assert.equal(loaded.isError, false, loaded.text);
      const loadedVersion = board.snapshot().detail!.version!;
      if (timing === 'afterLoad') await other();
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: mine })).isError, false);
      if (timing === 'afterPreview') await other();
      if (timing === 'whileAsked') confirmer.whileAsked = async () => { await other(); };
      const saved = await call('xos_ui_save');
      if (timing === 'afterSave') await other();

      const now = await storedPerson(backend, id);
      tally.trials++;
      tally.byTiming[timing] = (tally.byTiming[timing] ?? 0) + 1;
      if (BETWEEN.has(timing)) {
        // The other write landed after the load: this save must not overwrite it.
        if (now.lastname !== theirs || now.city === mine.city) tally.silentOverwrites++;
        assert.equal(saved.isError, true, `trial ${trial} (${timing}): the save should have met the other write:\n${saved.text}`);
        assert.match(saved.text, /changed by someone else .*nothing was written/);
        assert.equal(now.version, loadedVersion + 1, `trial ${trial}: exactly the other write, no second one`);
        tally.conflicts++;
      } else {
        assert.equal(saved.isError, false, `trial ${trial} (${timing}): ${saved.text}`);
        assert.match(saved.text, new RegExp(`^Saved person ${id} "[^"]+" \\(version ${loadedVersion} -> ${loadedVersion + 1}\\)`));
        assert.equal(now.city, mine.city);
        if (timing === 'afterSave') assert.equal(now.lastname, theirs);
        else if (sameField) assert.equal(now.lastname, `Agent-${trial}`);
        tally.saved++;
      }
      assert.equal(confirmer.approvals, 1, 'one question, one approval, per save');
    },
  ), { numRuns: TRIALS, seed: 20261203, endOnFailure: true });
  return tally;
}

/**
 * A TCP hop between a remote client and xos-server that forwards everything, but cuts the
 * client's connection as soon as a request carrying a mutation has been passed on — the
 * server gets it, the client never hears back.
 */
async function cuttingProxy(target: number, { downAfterCut }: { downAfterCut: boolean }): Promise<{ port: number; mutationsPassed: () => number; close(): Promise<void> }> {
  let mutations = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    // After the cut the server looks gone: every later connection is dropped at once.
    if (downAfterCut && mutations > 0) {
      client.destroy();
      return;
    }
    const upstream = tcpConnect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    let seen = '';
    client.on('data', (raw: Buffer) => {
      // The server accepts only its own Host: say it, as a reverse proxy would.
      const chunk = Buffer.from(raw.toString('latin1').replace(/\r\nhost: [^\r\n]*/i, `\r\nhost: 127.0.0.1:${target}`), 'latin1');
      upstream.write(chunk);
      seen += chunk.toString('latin1');
      if (/mutation/.test(seen) && /\r\n\r\n[\s\S]*\}\s*$/.test(seen)) {
        mutations++;
        // Let the server read it whole, then drop the client without an answer.
        upstream.removeAllListeners('data');
        upstream.once('data', () => {
          client.destroy();
          // Gone means gone: kept-alive connections of earlier requests die too.
          if (downAfterCut) for (const socket of sockets) socket.destroy();
        });
      }
    });
    upstream.on('data', (chunk) => { if (!client.destroyed) client.write(chunk); });
    const closeBoth = () => { client.destroy(); upstream.destroy(); };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    mutationsPassed: () => mutations,
    close: () => new Promise((resolve) => { for (const socket of sockets) socket.destroy(); server.close(() => resolve()); }),
  };
}

function raceSuite(store: string, dsn: () => Promise<string>): void {
  describe(`lost updates on ${store}`, () => {
    let backend: Backend;
    before(async () => { backend = await startBackend({ ast: demoApp(), dsn: await dsn(), seed: true }); });
    after(async () => { await backend?.close(); });

    test(`${TRIALS} race trials with another writer at random points: 0 silent overwrites`, { timeout: 600_000 }, async () => {
      const tally = await raceTrials(backend);
      console.log(`${store}: ${JSON.stringify(tally)}`);
      assert.equal(tally.silentOverwrites, 0);
      assert.equal(tally.trials, TRIALS);
      // Every timing was tried often enough to mean something.
      for (const timing of TIMINGS) assert.ok((tally.byTiming[timing] ?? 0) >= TRIALS / TIMINGS.length / 3, `${timing}: ${tally.byTiming[timing]}`);
    });

    for (const downAfterCut of [false, true]) {
      test(`a connection cut after the mutation was sent, the server ${downAfterCut ? 'then unreachable' : 'still there'}: at most one write, and the reply says what is known`, async () => {
        const http = await startHttpServer(backend.api, { port: 0 });
        const proxy = await cuttingProxy(http.port, { downAfterCut });
        try {
          const client: XosClient = await connectRemoteClient({ endpoint: `http://127.0.0.1:${proxy.port}`, timeoutMs: 5_000 });
          const board = new BoardState();
          const call = await toolSession({ client, board, confirmer: new RecordingConfirmer() });
          const id = downAfterCut ? 8 : 7;
          const before = await storedPerson(backend, id);
          await call('xos_schema');
          assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "${id}") { ${DETAIL} } }` })).isError, false);
          await call('xos_ui_change_required', { context: 'person_detail', changes: { city: `Schnittstadt-${id}` } });
          const saved = await call('xos_ui_save');
          assert.equal(proxy.mutationsPassed(), 1, 'the mutation was sent once and not retried');
          const after = await storedPerson(backend, id);
          assert.equal(after.version, before.version + 1, 'the server applied the one write it got, and no other');
          assert.equal(after.city, `Schnittstadt-${id}`);
          if (downAfterCut) {
            assert.equal(saved.isError, true, saved.text);
            assert.match(saved.text, /may have been stored.*no answer came back.*Nothing was retried.*xos_query/);
            assert.equal(board.formValues().city, `Schnittstadt-${id}`, 'the form keeps the change');
          } else {
            assert.equal(saved.isError, false, saved.text);
            assert.match(saved.text, new RegExp(`^Saved person ${id} "[^"]+" \\(version ${before.version} -> ${before.version + 1}\\): the answer to the save was lost .*reading the record back shows exactly this change stored`));
          }
        } finally {
          await proxy.close();
          await http.close();
        }
      });
    }
  });
}

let postgres: PostgresServer | undefined;
after(async () => { await postgres?.stop(); });

raceSuite('SQLite', async () => 'sqlite::memory:');
raceSuite('PostgreSQL', async () => {
  postgres = await startPostgres();
  return postgres.createDatabase('xos_races');
});
