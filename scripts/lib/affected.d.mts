export function importsOf(root: string, file: string): string[];
export function affectedTests(root: string, tests: readonly string[], changed: readonly string[]): string[];
export function changedFiles(root: string, base?: string): string[];
