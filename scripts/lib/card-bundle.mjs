// The inline card's bundle (MCP Apps): one definition for esbuild.mjs and the card tests.
// A classic script, inlined into the card's HTML by src/mcp/apps/card.ts, so always minified
// and without a linked source map (it would point nowhere).
import { join } from 'node:path';

/**
 * zod (pulled into the card by the MCP Apps client) re-exports all of its ~40 message locales;
 * the card only ever uses English, zod's default. Its locale index becomes English alone.
 */
export const zodEnglishOnly = {
  name: 'xos-zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (args.resolveDir.includes(`${join('node_modules', 'zod')}`)
      ? { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'xos-zod-locales' }
      : undefined));
    build.onLoad({ filter: /.*/, namespace: 'xos-zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: join(args.path, '..'),
      loader: 'js',
    }));
  },
};

export const cardBundle = {
  entry: 'webview/card/main.ts',
  outfile: join('dist', 'webview', 'card.js'),
  options: { format: 'iife', platform: 'browser', target: 'es2022', sourcemap: false, minify: true, plugins: [zodEnglishOnly] },
};
