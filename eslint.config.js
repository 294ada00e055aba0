// Lint rules that keep the architecture honest: imports point down the floors of
// docs/architecture.md (xos/layers, table in scripts/lib/layers.mjs), no module imports back
// into itself (xos/no-import-circles), and only src/host/ may import vscode.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersRule } from './scripts/lib/layers.mjs';
import { noImportCirclesRule } from './scripts/lib/circles.mjs';

// Globals of Node 24 that plain .js/.mjs scripts use (TypeScript files are checked by tsc instead).
const nodeGlobals = Object.fromEntries([
  'console', 'process', 'Buffer', 'globalThis', 'URL', 'URLSearchParams',
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask',
  'fetch', 'Request', 'Response', 'Headers', 'AbortController', 'AbortSignal',
  'TextEncoder', 'TextDecoder', 'structuredClone', 'performance',
].map((name) => [name, 'readonly']));

const vscodeOnlyInHost = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'Only src/host/ imports "vscode"; pass what you need in as a dependency.' }],
    patterns: [{ group: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'], message: 'XOS speaks MCP through the SDK v2 packages (@modelcontextprotocol/server, /client, /node); the v1 package is only the conformance suite\'s own dependency.' }],
  }],
  'no-restricted-syntax': ['error', {
    selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
    message: 'Only src/host/ imports "vscode".',
  }, {
    selector: "ImportExpression[source.value='vscode']",
    message: 'Only src/host/ imports "vscode".',
  }],
};

// Text shown to the person carries data, and a VS Code notification renders `[label](command:…)`
// as a link that runs a command: every notification and message dialog goes through notify()
// (src/host/notify.ts), which sanitises it. Calling VS Code's show*Message anywhere else is an error.
const notifyMessage = 'Show notifications and message dialogs through notify() (src/host/notify.ts): it sanitises the text shown to the person.';
const onlyThroughNotify = {
  'no-restricted-properties': ['error',
    ...['showInformationMessage', 'showWarningMessage', 'showErrorMessage'].map((property) => ({ property, message: notifyMessage })),
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.xos/**', 'out/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Each part of src/ imports only parts on lower floors; the webview only its browser-safe modules.
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { xos: { rules: { layers: layersRule, 'no-import-circles': noImportCirclesRule } } },
    rules: { 'xos/layers': 'error', 'xos/no-import-circles': 'error' },
  },
  {
    languageOptions: { globals: nodeGlobals },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      ...vscodeOnlyInHost,
    },
  },
  {
    // Tests read loosely typed JSON responses; `any` there keeps assertions readable.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // In-host test suites run inside the extension host and drive the real API.
    files: ['src/host/**/*.ts', 'test/host/**/*.ts', 'test/extensions/**/*.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    files: ['src/host/**/*.ts', 'src/extension.ts'],
    // notify.ts is the door itself.
    ignores: ['src/host/notify.ts'],
    rules: onlyThroughNotify,
  },
);
