export interface PackagedExtension {
  readonly path: string;
  readonly bytes: number;
}
export function manifest(): { name: string; version: string; publisher: string; [key: string]: unknown };
export function vsixPath(): string;
export function packageExtension(options?: { out?: string; quiet?: boolean }): Promise<PackagedExtension>;
