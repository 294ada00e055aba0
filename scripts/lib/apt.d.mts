export const APT_QUEUE_LOCK: string;
export function aptHint(packages: readonly string[]): string;
export function aptInstall(packages: readonly string[], options?: { output?: number }): Promise<void>;
