export const repoRoot: string;
export const nodeModulesDir: string;
export const pinnedNode: string;
export function projectNode(): string;
export function packageBin(pkg: string, relativePath: string): string;
