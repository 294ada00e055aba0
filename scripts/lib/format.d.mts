export function formatDuration(ms: number): string;
export function formatBytes(bytes: number): string;
export function formatTable(rows: readonly (readonly unknown[])[]): string;
