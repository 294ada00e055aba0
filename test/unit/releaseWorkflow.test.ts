// The release workflow (.github/workflows/release.yml), linted here since it runs only on GitHub:
// it runs for v* tags only, runs scripts this repository has, uses actions pinned to a version,
// publishes only where the secret exists, and never puts a secret on a command line or in a log.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';

const repo = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', repo), 'utf8')) as {
  name: string;
  devDependencies: Record<string, string>;
};

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
}
interface Job {
  readonly permissions?: Record<string, string>;
  readonly env?: Record<string, string>;
  readonly steps: Step[];
}
interface Workflow {
  readonly on: Record<string, unknown>;
  readonly permissions?: Record<string, string>;
  readonly jobs: Record<string, Job>;
}

const workflow = parseYaml(readFileSync(new URL('.github/workflows/release.yml', repo), 'utf8')) as Workflow;
const jobs = Object.values(workflow.jobs);
const steps = jobs.flatMap((job) => job.steps);
const runs = steps.filter((step) => step.run !== undefined);
const stepRunning = (pattern: RegExp) => steps.filter((step) => pattern.test(step.run ?? ''));

/** The secrets each publishing command needs: the job maps them to variables of the same name. */
const PUBLISHERS: [RegExp, string][] = [
  [/\bvsce (publish|verify-pat)\b/, 'VSCE_PAT'],
  [/\bovsx@[\d.]+ (publish|verify-pat)\b/, 'OVSX_PAT'],
  [/\bnpm publish\b/, 'NPM_TOKEN'],
];
const SECRET_VARIABLES = ['VSCE_PAT', 'OVSX_PAT', 'NPM_TOKEN', 'NODE_AUTH_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'];

test('it runs for pushed v* tags and nothing else', () => {
  assert.deepEqual(Object.keys(workflow.on), ['push']);
  assert.deepEqual(workflow.on.push, { tags: ['v*'] });
});

test('permissions: read by default; the release job may write the release and prove npm provenance', () => {
  assert.deepEqual(workflow.permissions, { contents: 'read' });
  for (const job of jobs) assert.deepEqual(job.permissions, { contents: 'write', 'id-token': 'write' });
});

test('every action is pinned to a version, and the checkout keeps no credentials', () => {
  const uses = steps.flatMap((step) => (step.uses ? [step.uses] : []));
  assert.ok(uses.length > 0);
  for (const action of uses) assert.match(action, /^[\w.-]+\/[\w.-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$/, `${action}: pin a release (vX.Y.Z) or a commit`);
  const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout@'));
  assert.equal(checkout?.with?.['persist-credentials'], false);
  const node = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
  assert.equal(String(node?.with?.['node-version']), manifest.devDependencies.node, 'the project\'s own Node (package.json devDependency "node")');
  assert.ok(runs.some((step) => step.run!.trim() === 'npm ci'), 'installs exactly the lock file');
});

test('every script a step runs is in the repository; every npx tool is a devDependency or pinned', {
  todo: existsSync(new URL('scripts/package-server.mjs', repo)) ? false : 'scripts/package-server.mjs is not in this checkout',
}, () => {
  const scripts = runs.flatMap((step) => [...step.run!.matchAll(/\bnode\s+(\S+\.m?[jt]s)\b/g)].map((match) => match[1]));
  for (const expected of ['scripts/release-notes.mjs', 'scripts/package.mjs', 'scripts/package-server.mjs']) assert.ok(scripts.includes(expected), `${expected} runs`);
  for (const script of scripts) assert.ok(existsSync(new URL(script, repo)), `${script} does not exist`);
  for (const [, tool] of runs.flatMap((step) => [...step.run!.matchAll(/\bnpx\s+(?:--yes\s+)?(\S+)/g)])) {
    const pinned = /^(@?[^@\s]+)@\d+\.\d+\.\d+$/.test(tool);
    assert.ok(pinned || tool in manifest.devDependencies, `npx ${tool}: a devDependency, or pinned as name@x.y.z`);
  }
});

test('the files it packages, sums, releases and publishes are the ones the scripts write', () => {
  const vsix = `dist/${manifest.name}-$VERSION.vsix`;
  const tarball = 'dist/xos-app-server-$VERSION.tgz';
  const release = stepRunning(/\bgh release create\b/);
  assert.equal(release.length, 1);
  for (const asset of [vsix, tarball, 'dist/SHA256SUMS']) assert.ok(release[0].run!.includes(`"${asset}"`) || release[0].run!.includes(asset), `the release carries ${asset}`);
  assert.match(release[0].run!, /--notes-file dist\/release-notes\.md/);
  assert.match(release[0].run!, /--verify-tag/);
  const sums = stepRunning(/\bsha256sum\b/)[0];
  assert.equal(sums.env, undefined);
  assert.match(sums.run!, /sha256sum "xos-vscode-\$VERSION\.vsix" "xos-app-server-\$VERSION\.tgz"/);
  assert.match(stepRunning(/vsce publish/)[0].run!, new RegExp(`--packagePath "${vsix.replace(/[$.]/g, '\\$&')}"`));
  assert.match(stepRunning(/ovsx@[\d.]+ publish/)[0].run!, new RegExp(`publish "${vsix.replace(/[$.]/g, '\\$&')}"`));
  assert.match(stepRunning(/npm publish/)[0].run!, /npm publish "dist\/xos-app-server-\$VERSION\.tgz" --provenance --access public/);
  // In order: notes (which check the tag) before packaging, everything before the release, the release before any publishing.
  const at = (pattern: RegExp) => steps.findIndex((step) => pattern.test(step.run ?? ''));
  assert.ok(at(/release-notes\.mjs/) < at(/scripts\/package\.mjs/));
  assert.ok(at(/scripts\/package\.mjs/) < at(/sha256sum/) && at(/package-server\.mjs/) < at(/sha256sum/));
  assert.ok(at(/sha256sum/) < at(/gh release create/));
  for (const publish of [/vsce publish/, /ovsx@[\d.]+ publish/, /npm publish/]) assert.ok(at(/gh release create/) < at(publish));
});

test('each publishing step runs only where its secret is set; secrets reach steps as job variables only', () => {
  for (const job of jobs) {
    for (const [, secret] of PUBLISHERS) assert.equal(job.env?.[secret], `\${{ secrets.${secret} }}`, `the job maps secrets.${secret} to ${secret}`);
    const secretsInEnv = Object.entries(job.env ?? {}).filter(([, value]) => /secrets\./.test(value)).map(([name]) => name);
    assert.deepEqual(secretsInEnv.sort(), PUBLISHERS.map(([, secret]) => secret).sort());
  }
  for (const [command, secret] of PUBLISHERS) {
    const guarded = stepRunning(command);
    assert.ok(guarded.length > 0, `a step runs ${command}`);
    for (const step of guarded) assert.equal(step.if, `env.${secret} != ''`, `${step.name}: runs only with ${secret}`);
  }
  // Nothing else reads a secret directly.
  for (const step of steps) {
    assert.doesNotMatch(JSON.stringify(step), /secrets\./, `${step.name}: secrets belong in the job's env`);
  }
});

test('no secret is put on a command line or echoed, and no expression is spliced into a script', () => {
  for (const step of runs) {
    // ${{ }} inside run: is pasted into the script before it runs (a tag name could inject commands).
    assert.doesNotMatch(step.run!, /\$\{\{/, `${step.name}: pass values through env, not \${{ }} in the script`);
    for (const variable of SECRET_VARIABLES) {
      assert.doesNotMatch(step.run!, new RegExp(`\\$\\{?${variable}\\b`), `${step.name}: ${variable} is read by the tool from its environment`);
    }
    assert.doesNotMatch(step.run!, /\bset -x\b|\benv\s*$|\bprintenv\b/m, `${step.name}: would print the environment`);
    assert.doesNotMatch(step.run!, /\s(-p|--pat)\s/, `${step.name}: a token on the command line`);
  }
});
