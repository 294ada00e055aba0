export function withProgress<T>(what: string, task: () => Promise<T>, options?: { log?: (line: string) => void; everyMs?: number }): Promise<T>;
