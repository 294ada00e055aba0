export interface ZipEntry {
  readonly name: string;
  readonly size: number;
  readonly compressedSize: number;
  /** 0 stored, 8 deflated. */
  readonly method: number;
  /** Where the entry's local header starts. */
  readonly offset: number;
}
export function listZipEntries(path: string): ZipEntry[];
export function readZipEntry(path: string, name: string): Buffer;
