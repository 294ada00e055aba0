// Lists the entries of a zip file (a .vsix) from its central directory, and reads one entry's
// text, without a dependency.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** `[{ name, size, compressedSize, method, offset }]` of every entry, in the order the archive lists them. */
export function listZipEntries(path) {
  const zip = readFileSync(path);
  // The end record sits in the last 22 bytes plus an optional comment of up to 64 KiB.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error(`${path} is not a zip file (no end of central directory)`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`${path}: broken central directory entry ${index}`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), size, compressedSize, method, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The contents of the entry `name` (stored or deflated, as vsce writes them). */
export function readZipEntry(path, name) {
  const entry = listZipEntries(path).find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`${path} has no entry ${name}`);
  const zip = readFileSync(path);
  if (zip.readUInt32LE(entry.offset) !== LOCAL_FILE_HEADER) throw new Error(`${path}: broken local header of ${name}`);
  // The local header repeats name and extra field, with lengths of its own.
  const start = entry.offset + 30 + zip.readUInt16LE(entry.offset + 26) + zip.readUInt16LE(entry.offset + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === STORED) return Buffer.from(data);
  if (entry.method === DEFLATED) return inflateRawSync(data);
  throw new Error(`${path}: ${name} uses compression method ${entry.method}`);
}
