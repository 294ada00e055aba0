// npm start: build, then serve the bundled demo CRM on the embedded SQLite
// store with its demo data, print the GraphQL URL and run the seed's example
// query once so you see it work. Ctrl+C stops the server.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE = '{ person_list { id firstname lastname email city age net_worth } }';

const build = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

mkdirSync(join(root, '.xos'), { recursive: true });
const wanted = process.env.XOS_PORT ?? '4000';
const port = (await isFree(Number(wanted))) ? wanted : '0';
if (port !== wanted) console.log(`Port ${wanted} is busy; picking a free one.`);

function isFree(p) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(p, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function serve() {
  const args = [join(root, 'dist', 'xos-server.mjs'), '--dsn', `sqlite:${join(root, '.xos', 'demo.db')}`, '--seed', '--port', port];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    printed += chunk;
    const url = printed.match(/GraphQL\s+(http:\/\/\S+)\/graphql/)?.[1];
    if (url && !printed.includes('\u0000tried')) {
      printed += '\u0000tried';
      tryExample(url);
    }
  });
  child.on('exit', (code, signal) => process.exit(signal ? 0 : code ?? 0));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill('SIGINT'));
}

async function tryExample(url) {
  try {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: EXAMPLE }) });
    const body = await res.json();
    const people = body.data?.person_list ?? [];
    console.log(`\nExample query ${EXAMPLE}\n  -> ${people.length} people, first: ${JSON.stringify(people[0])}\n`);
  } catch (e) {
    console.log(`Example query failed: ${e.message}`);
  }
}

serve();
