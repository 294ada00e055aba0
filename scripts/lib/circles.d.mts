import type { Rule } from 'eslint';

export function sourceFiles(folder: string): string[];
export function importSpecifiers(path: string): string[];
export function importGraph(files: readonly string[]): Map<string, string[]>;
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][];
export const noImportCirclesRule: Rule.RuleModule;
