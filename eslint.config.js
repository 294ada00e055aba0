// Lint rules that keep the architecture honest: only src/host/ may import vscode.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  }],
  'no-restricted-syntax': ['error', {
    selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
    message: 'Only src/host/ imports "vscode".',
  }, {
    selector: "ImportExpression[source.value='vscode']",
    message: 'Only src/host/ imports "vscode".',
  }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.xos/**', 'out/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
);
