// A `style=${styleProps({...})}` binding that always goes through the CSSOM. Lit's styleMap
// writes its first value as a style attribute, which the Board's CSP (no 'unsafe-inline'
// styles) blocks, so a freshly rendered row would lose its position. Names are CSS names
// (`transform`, `--xos-columns`).
import { noChange } from 'lit';
import { Directive, directive, PartType, type AttributePart, type PartInfo } from 'lit/directive.js';

class StyleProps extends Directive {
  private previous = new Map<string, string>();

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ATTRIBUTE || info.name !== 'style') throw new Error('styleProps belongs in a style attribute');
  }

  render(_props: Readonly<Record<string, string>>): typeof noChange {
    return noChange;
  }

  override update(part: AttributePart, [props]: [Readonly<Record<string, string>>]): typeof noChange {
    const style = (part.element as HTMLElement).style;
    for (const name of this.previous.keys()) if (!Object.hasOwn(props, name)) style.removeProperty(name);
    for (const [name, value] of Object.entries(props)) {
      if (this.previous.get(name) !== value) style.setProperty(name, value);
    }
    this.previous = new Map(Object.entries(props));
    return noChange;
  }
}

export const styleProps = directive(StyleProps);
