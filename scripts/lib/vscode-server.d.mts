// Types of what TypeScript tests import directly; test/e2e/support/codeServer.ts types the rest.
export function withoutOuterNpm(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function envWithProjectNode(): NodeJS.ProcessEnv;
export function cacheRoot(): string;
