// Lint rules that keep the architecture honest: only src/host/ may import vscode.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', globalThis: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      ...vscodeOnlyInHost,
    },
  },
  {
    files: ['src/host/**/*.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
);
