// Where XOS's own files are (dist/webview/…) for code that runs from the sources (tests) or
// from a bundle in dist/ (the extension, xos-mcp): the nearest folder with a package.json
// above the running module. esbuild.mjs gives the CommonJS extension bundle
// `import.meta.dirname` as __dirname.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function packageRoot(start: string = import.meta.dirname): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}
