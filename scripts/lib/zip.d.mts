export interface ZipEntry {
  readonly name: string;
  readonly size: number;
  readonly compressedSize: number;
}
export function listZipEntries(path: string): ZipEntry[];
