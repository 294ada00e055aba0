// What the Visual Studio Marketplace and Open VSX ask of the manifest and the packaged .vsix,
// beyond what `vsce package` refuses by itself: checked after every `npm run package`, so a
// release fails here and not at the publish step, and by test/unit/marketplace.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readPngSize } from './png.mjs';

/** The categories VS Code and the Marketplace know (VS Code's EXTENSION_CATEGORIES). */
export const MARKETPLACE_CATEGORIES = new Set([
  'AI', 'Azure', 'Chat', 'Data Science', 'Debuggers', 'Extension Packs', 'Education', 'Formatters', 'Keymaps',
  'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Programming Languages', 'SCM Providers',
  'Snippets', 'Testing', 'Themes', 'Visualization', 'Other',
]);

/** The extension manifest reference: "This list is currently limited to 5 keywords." */
export const MAX_KEYWORDS = 5;

/** The Marketplace shows icons at 128 px and asks for at least that. */
export const MIN_ICON_PIXELS = 128;

/**
 * The .vsix holds bundles, texts, demo data and media: about 1.3 MB today. Far more means
 * something leaked in (node_modules, source maps, screenshots).
 */
export const VSIX_BUDGET_BYTES = 3 * 1024 * 1024;

// Open VSX: a namespace is the manifest's publisher and must match this.
const OPEN_VSX_NAMESPACE = /^[\w\-+$~]+$/;
const HTTPS = /^https:\/\//;

/** vsce's own manifest validation (publisher, name, version, engines, @types/vscode, icon, badges). */
function vsceProblems(manifest, root) {
  const { validateManifestForPackaging } = createRequire(join(root, 'package.json'))('@vscode/vsce/out/package.js');
  try {
    validateManifestForPackaging(manifest);
    return [];
  } catch (error) {
    return [`vsce: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** Images of a Markdown text: `![alt](src)` and `<img src="…">`. */
export function markdownImages(markdown) {
  const images = [...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)/g)].map((match) => match[1]);
  const tags = [...markdown.matchAll(/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)].map((match) => match[1]);
  return [...images, ...tags];
}

/**
 * Every problem the stores would have with `manifest` (package.json as an object), read from `root`.
 * `files` (the .vsix's entries under extension/, without that prefix) and `bytes` (its size) are
 * checked when given.
 */
export function marketplaceProblems(manifest, { root, files, bytes } = {}) {
  const problems = [...vsceProblems(manifest, root)];
  const problem = (text) => problems.push(text);

  if (!OPEN_VSX_NAMESPACE.test(manifest.publisher ?? '')) problem(`publisher "${manifest.publisher}" is no Open VSX namespace (letters, digits, _ - + $ ~)`);
  if (!manifest.displayName) problem('displayName is missing: the stores show it as the title');
  if (!manifest.description) problem('description is missing');

  const keywords = manifest.keywords ?? [];
  if (keywords.length > MAX_KEYWORDS) problem(`${keywords.length} keywords; the Marketplace takes at most ${MAX_KEYWORDS}`);
  if (keywords.some((keyword) => typeof keyword !== 'string' || keyword.trim() === '')) problem('every keyword must be a non-empty string');

  const categories = manifest.categories ?? [];
  if (categories.length === 0) problem('categories are missing');
  for (const category of categories) {
    if (!MARKETPLACE_CATEGORIES.has(category)) problem(`category "${category}" is not one of ${[...MARKETPLACE_CATEGORIES].join(', ')}`);
  }

  if (!manifest.icon) problem('icon is missing');
  else if (!/\.png$/i.test(manifest.icon)) problem(`icon ${manifest.icon} must be a PNG`);
  else if (!existsSync(join(root, manifest.icon))) problem(`icon ${manifest.icon} does not exist`);
  else {
    const size = readPngSize(readFileSync(join(root, manifest.icon)));
    if (!size) problem(`icon ${manifest.icon} is not a PNG file`);
    else if (size.width < MIN_ICON_PIXELS || size.height < MIN_ICON_PIXELS) problem(`icon ${manifest.icon} is ${size.width}×${size.height}; the stores need at least ${MIN_ICON_PIXELS}×${MIN_ICON_PIXELS}`);
  }

  const banner = manifest.galleryBanner;
  if (!banner) problem('galleryBanner is missing: the Marketplace header would not match the icon');
  else {
    if (!/^#[0-9a-f]{6}$/i.test(banner.color ?? '')) problem(`galleryBanner.color "${banner.color}" must be a colour like #1B3F94`);
    if (banner.theme !== 'dark' && banner.theme !== 'light') problem(`galleryBanner.theme "${banner.theme}" must be dark or light`);
  }

  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!HTTPS.test(repository ?? '')) problem(`repository "${repository}" must be an https URL (vsce links the README's relative links and images to it)`);
  if (!HTTPS.test(manifest.homepage ?? '')) problem(`homepage "${manifest.homepage}" must be an https URL`);
  const bugs = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
  if (!HTTPS.test(bugs ?? '')) problem(`bugs "${bugs}" must be an https URL`);

  if (!manifest.license) problem('license is missing: Open VSX publishes no extension without one');
  if (!['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((name) => existsSync(join(root, name)))) problem('no LICENSE file: Open VSX needs one in the package');
  // vsce refuses a manifest with "files" next to a .vscodeignore.
  if (manifest.files !== undefined) problem('"files" in package.json: the .vscodeignore chooses what the .vsix holds');

  for (const source of markdownImages(readFileSync(join(root, 'README.md'), 'utf8'))) {
    if (/^data:/i.test(source) || /^http:/i.test(source)) problem(`README image ${source} must be an https URL or a file of the repository`);
    if (/\.svg([?#]|$)/i.test(source) && !/^https:\/\/img\.shields\.io\//.test(source)) problem(`README image ${source} is an SVG; the Marketplace shows none`);
  }

  if (files) {
    const lower = files.map((name) => name.toLowerCase());
    for (const required of ['package.json', 'readme.md', 'changelog.md']) {
      if (!lower.includes(required)) problem(`${required} missing from the .vsix`);
    }
    if (!lower.some((name) => /^license(\.md|\.txt)?$/.test(name))) problem('no LICENSE in the .vsix');
    if (manifest.icon && !files.includes(manifest.icon)) problem(`the icon ${manifest.icon} is missing from the .vsix`);
    const devFiles = files.filter((name) => /(^|\/)(test|src|node_modules|\.vscode|\.github)\//.test(name) || /\.(m?ts|map)$/.test(name));
    if (devFiles.length) problem(`development files in the .vsix: ${devFiles.join(', ')}`);
  }
  if (bytes !== undefined && bytes > VSIX_BUDGET_BYTES) problem(`the .vsix has ${bytes} bytes, over its budget of ${VSIX_BUDGET_BYTES}`);
  return problems;
}
