// The packaged XOS extension for browser tests: the .vsix npm test built (XOS_E2E_VSIX), else packaged now.
import { existsSync } from 'node:fs';
import { packageExtension } from '../../../scripts/lib/package.mjs';

let packaged: Promise<string> | undefined;

export function packagedExtension(): Promise<string> {
  const given = process.env.XOS_E2E_VSIX;
  if (given && existsSync(given)) return Promise.resolve(given);
  packaged ??= packageExtension({ quiet: true }).then((result) => result.path);
  return packaged;
}
