// The team server's container recipe (deploy/Containerfile, deploy/compose.yaml, docs/deploy.md),
// linted without a container engine: pinned images, a non-root user, a health check on the route
// xos-server serves, exec-form commands, no secret baked in, and only variables the CLI reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';

const repo = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, repo), 'utf8');
const manifest = JSON.parse(read('package.json')) as { version: string; bin: Record<string, string>; devDependencies: Record<string, string> };

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** A Containerfile's instructions: comment lines dropped, continuation lines joined. */
function instructions(text: string): Instruction[] {
  const logical: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const continued = /\\\s*$/.test(line);
    current += (current ? ' ' : '') + line.replace(/\\\s*$/, '').trim();
    if (!continued) {
      if (current.trim()) logical.push(current.trim());
      current = '';
    }
  }
  return logical.map((line) => {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    return { keyword: keyword.toUpperCase(), args };
  });
}

/** `KEY=value` pairs of ENV, ARG and LABEL (quotes removed). */
function assignments(args: string): [string, string][] {
  return [...args.matchAll(/([\w.-]+)=("([^"]*)"|\S*)/g)].map((match) => [match[1], match[3] ?? match[2]]);
}

/** The JSON array of an exec-form instruction, or undefined for the shell form. */
function execForm(args: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The XOS_* variables xos-server reads (src/backend/cli.ts). */
function variablesTheCliReads(): Set<string> {
  const source = read('src/backend/cli.ts');
  // A setting (flagOrEnv) or a token (secret: its file, else its variable).
  const names = [...source.matchAll(/process\.env\.(XOS_[A-Z_]+)|(?:flagOrEnv|secret)\([^()]*?'(XOS_[A-Z_]+)'\)/g)].map((match) => match[1] ?? match[2]);
  return new Set(names);
}

/** What the database driver (pg) reads from the environment and the database image needs. */
const DATABASE_VARIABLES = new Set(['PGPASSWORD', 'POSTGRES_PASSWORD', 'POSTGRES_USER', 'POSTGRES_DB']);
const SECRET_NAME = /TOKEN|PASSWORD|SECRET|_PAT$|KEY/i;
const DSN_WITH_PASSWORD = /\w+:\/\/[^/\s:@]+:[^/\s@]+@/;

const recipeText = read('deploy/Containerfile');
const recipe = instructions(recipeText);
const all = (keyword: string) => recipe.filter((instruction) => instruction.keyword === keyword);
const last = (keyword: string) => all(keyword).at(-1);
const indexOfLast = (keyword: string) => recipe.findLastIndex((instruction) => instruction.keyword === keyword);

test('the parser joins continuation lines and drops comments', () => {
  assert.deepEqual(instructions('# c\nFROM a:1\nRUN x \\\n  # inner\n  && y\n'), [{ keyword: 'FROM', args: 'a:1' }, { keyword: 'RUN', args: 'x && y' }]);
  assert.deepEqual(assignments('A=1 B="two words" C='), [['A', '1'], ['B', 'two words'], ['C', '']]);
  assert.equal(execForm('xos-server --port 4000'), undefined);
});

test('the base image is an official Node 24 slim image, pinned to the project\'s Node', () => {
  const froms = all('FROM');
  assert.equal(froms.length, 1, 'one stage');
  const image = froms[0].args.split(/\s+/)[0];
  const match = /^docker\.io\/library\/node:(\d+\.\d+\.\d+)-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/.exec(image);
  assert.ok(match, `${image}: a fully qualified, version-pinned node:<x.y.z>-<debian>-slim`);
  assert.equal(match[1], manifest.devDependencies.node, 'the Node of package.json\'s devDependency "node"');
  assert.match(match[1], /^24\./);
});

test('the package is @xos-app/server at the repository\'s version, overridable by a build argument', () => {
  const arg = assignments(last('ARG')?.args ?? '').find(([name]) => name === 'XOS_SERVER_PACKAGE');
  assert.deepEqual(arg, ['XOS_SERVER_PACKAGE', `@xos-app/server@${manifest.version}`]);
  assert.ok(all('RUN').some((run) => run.args.includes('"$XOS_SERVER_PACKAGE"')), 'the RUN installs $XOS_SERVER_PACKAGE');
  const labels = all('LABEL').flatMap((label) => assignments(label.args));
  assert.ok(labels.some(([name, value]) => name === 'org.opencontainers.image.version' && value === manifest.version), 'the image version label');
  // Only the tarball reaches the build context.
  const ignored = read('.dockerignore').split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  assert.deepEqual(ignored, ['*', '!dist/xos-app-server-*.tgz']);
});

test('it runs as a non-root user, set after every RUN and before the command', () => {
  const user = last('USER');
  assert.ok(user, 'USER is set');
  assert.doesNotMatch(user.args, /^(root|0)(:|$)/);
  assert.ok(indexOfLast('USER') > indexOfLast('RUN'), 'USER after the last RUN');
  assert.ok(indexOfLast('USER') < indexOfLast('ENTRYPOINT') && indexOfLast('USER') < indexOfLast('CMD'), 'USER before ENTRYPOINT and CMD');
});

test('ENTRYPOINT and CMD are exec form: xos-server on all interfaces of the container, on the exposed port', () => {
  const entrypoint = execForm(last('ENTRYPOINT')?.args ?? '');
  const cmd = execForm(last('CMD')?.args ?? '');
  assert.ok(entrypoint && cmd, 'exec form (JSON arrays): the server is PID 1 and receives SIGTERM itself');
  assert.deepEqual(entrypoint, ['xos-server']);
  assert.ok(manifest.bin['xos-server'], 'xos-server is a command of the package');
  const port = cmd[cmd.indexOf('--port') + 1];
  assert.deepEqual(cmd, ['--host', '0.0.0.0', '--port', port]);
  assert.deepEqual(all('EXPOSE').map((expose) => expose.args), [port]);
  // xos-server refuses 0.0.0.0 without a token; the recipe must not switch that off.
  assert.doesNotMatch(recipeText, /insecure-no-token/);
});

test('HEALTHCHECK asks the route xos-server serves for health, on the exposed port, in exec form', () => {
  const healthcheck = last('HEALTHCHECK');
  assert.ok(healthcheck, 'HEALTHCHECK is set');
  const command = /\bCMD\s+(\[.*\])$/.exec(healthcheck.args)?.[1];
  const exec = execForm(command ?? '');
  assert.ok(exec, `exec form: ${healthcheck.args}`);
  const url = /http:\/\/127\.0\.0\.1:(\d+)(\/\w+)/.exec(exec.join(' '));
  assert.ok(url, 'a loopback URL');
  assert.equal(url[1], all('EXPOSE')[0].args);
  assert.equal(url[2], '/healthz');
  assert.match(read('src/backend/http.ts'), /path === '\/healthz' && req\.method === 'GET'/, 'xos-server serves GET /healthz');
});

test('no secret is baked into the image or the compose file', () => {
  for (const instruction of recipe.filter(({ keyword }) => ['ENV', 'ARG', 'LABEL'].includes(keyword))) {
    for (const [name, value] of assignments(instruction.args)) {
      assert.ok(!SECRET_NAME.test(name) || value === '', `${instruction.keyword} ${name} holds a value`);
    }
  }
  const compose = read('deploy/compose.yaml');
  for (const text of [recipeText, compose, read('deploy/xos.env.example'), read('docs/deploy.md')]) {
    assert.doesNotMatch(text, DSN_WITH_PASSWORD, 'a DSN with a password');
  }
  const services = (parseYaml(compose) as { services: Record<string, { environment?: Record<string, string> }> }).services;
  for (const [name, service] of Object.entries(services)) {
    const secrets = Object.keys(service.environment ?? {}).filter((variable) => SECRET_NAME.test(variable));
    assert.deepEqual(secrets, [], `${name}: secrets belong in env_file, not in environment`);
  }
  // The example secrets file holds names only.
  const filled = read('deploy/xos.env.example').split('\n').filter((line) => /^\w+=./.test(line));
  assert.deepEqual(filled, []);
  assert.match(read('.gitignore'), /^deploy\/xos\.env$/m);
});

test('every XOS_* variable the recipe, the compose file and docs/deploy.md configure is one xos-server reads', () => {
  const reads = variablesTheCliReads();
  for (const name of ['XOS_TOKEN', 'XOS_FRONTEND_TOKEN', 'XOS_DSN', 'XOS_AST']) assert.ok(reads.has(name), `cli.ts reads ${name}`);
  const compose = parseYaml(read('deploy/compose.yaml')) as { services: Record<string, { environment?: Record<string, string> }> };
  const configured = [
    ...Object.keys(compose.services.xos.environment ?? {}),
    ...read('deploy/xos.env.example').split('\n').flatMap((line) => /^(\w+)=/.exec(line)?.[1] ?? []),
    ...recipe.filter(({ keyword }) => keyword === 'ENV').flatMap(({ args }) => assignments(args).map(([name]) => name)),
    // The variables table of docs/deploy.md.
    ...[...read('docs/deploy.md').matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]),
  ];
  assert.ok(configured.includes('XOS_DSN') && configured.includes('XOS_TOKEN'), `found: ${configured.join(', ')}`);
  const unknown = configured.filter((name) => !reads.has(name) && !DATABASE_VARIABLES.has(name));
  assert.deepEqual(unknown, [], 'variables nothing reads');
});

test('compose: pinned images, the recipe built at this version, published on loopback only', () => {
  const compose = parseYaml(read('deploy/compose.yaml')) as {
    services: Record<string, { image?: string; build?: { context: string; dockerfile: string }; ports?: string[] }>;
  };
  for (const [name, service] of Object.entries(compose.services)) {
    if (service.build) continue;
    assert.match(service.image ?? '', /^docker\.io\/library\/[\w-]+:\d+(\.\d+)+(-[\w.]+)?$/, `${name}: a fully qualified, version-pinned image`);
  }
  const xos = compose.services.xos;
  assert.deepEqual(xos.build, { context: '..', dockerfile: 'deploy/Containerfile' });
  assert.equal(xos.image, `xos-server:${manifest.version}`);
  for (const port of xos.ports ?? []) assert.match(port, /^127\.0\.0\.1:/, 'the proxy in front serves the network');
});
