import type { Rule } from 'eslint';

export interface Floor {
  readonly parts: readonly string[];
  readonly summary: string;
}

export const FLOORS: readonly Floor[];
export const WEBVIEW_IMPORTS: readonly string[];
export const PACKAGES: Readonly<Record<string, readonly string[]>>;
export function packageName(specifier: string): string;
export function packageProblem(from: string, specifier: string): string | undefined;
export function partOf(path: string): string | undefined;
export function importProblem(from: string, to: string): string | undefined;
export function repoPath(absolute: string): string;
export const layersRule: Rule.RuleModule;
