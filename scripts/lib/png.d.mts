export function readPngSize(bytes: Buffer): { width: number; height: number } | undefined;
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer;
