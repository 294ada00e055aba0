export const MINIMUM_NODE: string;
export function runBundle(name: string): Promise<void>;
