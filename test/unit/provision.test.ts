// What the provisioning of VS Code hands to the npm it runs: the project's Node first, and
// nothing an outer `npm start`/`npm test` says about itself. code-server's install script
// reads the Node version from npm_config_user_agent; the outer npm (on the machine's Node 20)
// once made it refuse to install although the inner npm ran on the project's Node 24.
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { envWithProjectNode, withoutOuterNpm } from '../../scripts/lib/vscode-server.mjs';
import { projectNode } from '../../scripts/lib/paths.mjs';

const outer = {
  npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  npm_config_npm_version: '11.19.1',
  npm_config_node_version: '20.20.2',
  npm_config_local_prefix: '/work/xos',
  npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_node_execpath: '/usr/bin/node',
  npm_package_name: 'xos-vscode',
  npm_lifecycle_event: 'test',
  INIT_CWD: '/work/xos',
};

test('the outer npm run\'s own variables are dropped; the person\'s npm settings stay', () => {
  const kept = { npm_config_registry: 'https://registry.example/', npm_config_cache: '/home/me/.npm', HOME: '/home/me', PATH: '/usr/bin' };
  assert.deepEqual(withoutOuterNpm({ ...outer, ...kept }), kept);
});

test('the npm that installs code-server runs on the project\'s Node and says so in its user agent', () => {
  const saved = { ...process.env };
  Object.assign(process.env, outer);
  try {
    const env = envWithProjectNode();
    assert.equal(env.npm_config_user_agent, undefined);
    assert.equal(env.npm_execpath, undefined);
    assert.equal(env.PATH?.split(':')[0], dirname(projectNode()));
  } finally {
    for (const name of Object.keys(outer)) delete process.env[name];
    Object.assign(process.env, saved);
  }
});
