export const SERVER_PACKAGE: string;
export const defaultPackageDir: string;
export const SIZE_BUDGET: { readonly packed: number; readonly unpacked: number };
export const RUNTIME_FILES: readonly string[];
export const NOTICES: string;
export interface PackagedServer {
  readonly path: string;
  readonly bytes: number;
  readonly unpackedBytes: number;
  readonly files: readonly string[];
  readonly version: string;
}
export function packageServer(options?: { dir?: string; build?: boolean }): Promise<PackagedServer>;
