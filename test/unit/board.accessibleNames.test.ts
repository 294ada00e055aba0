// Every input of the Board has its field's label as accessible name. The inputs of
// @vscode-elements/elements live in the element's shadow root: an `aria-label` on the element
// itself never reaches them (a screen reader, or Playwright's getByRole('textbox', { name }),
// finds a box without a name). The inner input takes its name from the element's `label`
// property; a checkbox's from the text slotted into it. Checked on the components' templates,
// since the unit tests have no DOM to render them in.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const elements = new URL('node_modules/@vscode-elements/elements/dist/', root);
const components = new URL('webview/components/', root);

/** Each use of `<tag …>…</tag>` in a template, opening tag and content. */
function usesOf(source: string, tag: string): string[] {
  return source.split(`<${tag}`).slice(1).map((rest) => rest.slice(0, rest.indexOf(`</${tag}>`)));
}

describe('the Board\'s inputs have accessible names', () => {
  test('the elements name their inner input by the label property, not by the aria-label of the element', () => {
    for (const element of ['vscode-textfield', 'vscode-textarea']) {
      const source = readFileSync(new URL(`${element}/${element}.js`, elements), 'utf8');
      assert.match(source, /<(input|textarea)[^>]*aria-label=\$\{this\.label\}/, `${element} names its inner input by its label`);
    }
    const select = readFileSync(new URL('vscode-single-select/vscode-single-select.js', elements), 'utf8');
    assert.match(select, /aria-label=\$\{ifDefined\(this\.label\)\}[\s\S]*role="combobox"/, 'vscode-single-select names its combobox by its label');
  });

  const files = readdirSync(components).filter((name) => name.endsWith('.ts'));
  for (const file of files) {
    const source = readFileSync(new URL(file, components), 'utf8');
    for (const tag of ['vscode-textfield', 'vscode-textarea', 'vscode-single-select']) {
      const uses = usesOf(source, tag);
      if (!uses.length) continue;
      test(`${file}: every <${tag}> sets .label`, () => {
        for (const use of uses) assert.match(use, /\s\.label=/, `<${tag}${use.slice(0, 80)}…> has no .label`);
      });
    }
    const boxes = usesOf(source, 'vscode-checkbox');
    if (boxes.length) {
      test(`${file}: every <vscode-checkbox> holds its label`, () => {
        for (const use of boxes) assert.match(use, /\s\.?label=|<span class="visually-hidden">\$\{[^}]+\}<\/span>$/, `<vscode-checkbox${use.slice(0, 80)}…> has no label`);
      });
    }
  }
});
