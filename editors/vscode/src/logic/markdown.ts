// Model answers as HTML: CommonMark + GFM (tables, strikethrough, task
// lists, autolinks) through markdown-it, code blocks highlighted by
// highlight.js, and file paths that exist in the workspace as links. The
// model's text is never trusted: raw HTML is text (html: false), a link
// keeps its href only for http(s) and mailto, an image is only a link, and
// the webview (media/chat.js) asks the extension to open what is clicked.

import MarkdownIt = require('markdown-it');
import type { HLJSApi } from 'highlight.js';
import { escapeHtml } from './escape';
import { linkPaths, type PathResolver, type PathTarget } from './pathLinks';

// The 37 common languages only (not all 190): what answers hold, and a
// fifth of the load time. Typed by the package's own declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hljs: HLJSApi = require('highlight.js/lib/common');

export type { PathResolver } from './pathLinks';

/** The schemes a link from the model may open (outside VS Code, by the user's click). */
const externalLink = /^(?:https?:|mailto:)/i;

/** createMarkdown is the renderer for one workspace: resolve says which paths are its files. */
export function createMarkdown(resolve: PathResolver): MarkdownIt.MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
  // "main.go" or "README.md" is a file here, not a host: only links with a
  // scheme become autolinks; paths are linkPaths' job.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
  // markdown-it refuses javascript:, vbscript:, file: and data: itself; a
  // relative target survives to link_open, which keeps it only when it is
  // a workspace file.
  md.validateLink = (url) => externalLink.test(url) || !/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url);
  md.core.ruler.push('task_lists', taskLists);
  md.core.ruler.push('path_links', (state) => linkPaths(state, resolve));

  const rules = md.renderer.rules;
  rules.fence = (tokens, i) => codeBlock(tokens[i].content, tokens[i].info);
  rules.code_block = (tokens, i) => codeBlock(tokens[i].content, '');
  rules.link_open = (tokens, i, options, _env, self) => {
    const t = tokens[i];
    const path = t.meta?.path as PathTarget | undefined;
    if (path) {
      const line = path.line ? ` data-line="${path.line}"` : '';
      return `<a class="path-link" href="#" data-path="${escapeHtml(path.path)}"${line} title="Open ${escapeHtml(path.path)}${path.line ? `:${path.line}` : ''}">`;
    }
    const href = String(t.attrGet('href') ?? '');
    if (externalLink.test(href)) return self.renderToken(tokens, i, options).replace(/>$/, ` class="external-link" title="${escapeHtml(href)}">`);
    const target = resolveTarget(href, resolve);
    if (target) {
      t.meta = { ...t.meta, path: target };
      return rules.link_open!(tokens, i, options, _env, self);
    }
    t.meta = { ...t.meta, inert: true };
    return '<span class="inert-link">';
  };
  rules.link_close = (tokens, i) => {
    const open = findOpen(tokens, i);
    return open?.meta?.inert ? '</span>' : '</a>';
  };
  // An image would load from wherever the model points (a tracking pixel,
  // a leak of what it read): it is shown as a link to itself instead.
  rules.image = (tokens, i) => {
    const t = tokens[i];
    const src = String(t.attrGet('src') ?? '');
    const alt = escapeHtml(t.content || src);
    return externalLink.test(src) ? `<a class="external-link" href="${escapeHtml(src)}" title="${escapeHtml(src)}">🖼 ${alt}</a>` : `<span>🖼 ${alt}</span>`;
  };
  return md;
}

/** resolveTarget is a link target's workspace file, if it is one ("src/a.go#L12" and "a.go:12" keep the line). */
function resolveTarget(href: string, resolve: PathResolver): PathTarget | undefined {
  const m = /^(.+?)(?:#L(\d+)(?:-L?\d+)?|:(\d+)(?::\d+)?)?$/.exec(decodeSafely(href));
  if (!m) return undefined;
  const path = resolve(m[1]);
  if (path === undefined) return undefined;
  const line = Number(m[2] ?? m[3] ?? 0);
  return line > 0 ? { path, line } : { path };
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function findOpen(tokens: readonly MarkdownIt.Token[], close: number): MarkdownIt.Token | undefined {
  let depth = 0;
  for (let j = close - 1; j >= 0; j--) {
    if (tokens[j].type === 'link_close') depth++;
    else if (tokens[j].type === 'link_open') {
      if (depth === 0) return tokens[j];
      depth--;
    }
  }
  return undefined;
}

/** The language of a fence's info string, as a class-safe word ("go", "c++", "objective-c"). */
export function fenceLanguage(info: string): string {
  const word = info.trim().split(/\s+/)[0] ?? '';
  return /^[\w+#.-]{1,32}$/.test(word) ? word.toLowerCase() : '';
}

/**
 * codeBlock is a fenced block: its language, Copy / Insert / Apply
 * (media/chat.js sends the code's text to the extension), and the code
 * highlighted when highlight.js knows the language (never guessed: a wrong
 * guess colours prose as code, and guessing runs every grammar).
 */
export function codeBlock(code: string, info: string): string {
  const lang = fenceLanguage(info);
  const known = lang !== '' && hljs.getLanguage(lang) !== undefined;
  const body = known ? hljs.highlight(code, { language: lang, ignoreIllegals: true }).value : escapeHtml(code);
  const cls = lang ? ` class="hljs language-${escapeHtml(lang)}"` : ' class="hljs"';
  return `<div class="codeblock"><div class="codeblock-head"><span class="codeblock-lang">${escapeHtml(lang || 'text')}</span>` +
    '<span class="codeblock-actions">' +
    '<button type="button" class="code-action" data-code-action="copy" title="Copy the code">Copy</button>' +
    '<button type="button" class="code-action" data-code-action="insert" title="Insert the code at the cursor of the active editor">Insert</button>' +
    '<button type="button" class="code-action" data-code-action="apply" title="Apply the code to the active editor\'s selection (or the whole file), reviewed hunk by hunk">Apply</button>' +
    `</span></div><pre><code${cls}>${body}</code></pre></div>\n`;
}

/**
 * taskLists turns a list item that starts "[ ] " or "[x] " into a
 * disabled checkbox (GFM task lists). Written here, not the
 * markdown-it-task-lists plugin: that one is unmaintained since 2018 and
 * makes the boxes clickable, which means nothing in a transcript.
 */
function taskLists(state: MarkdownIt.StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const m = first && first.type === 'text' ? /^\[([ xX])\] /.exec(first.content) : null;
    if (!m || !first) continue;
    first.content = first.content.slice(m[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" class="task" disabled${m[1] === ' ' ? '' : ' checked'}> `;
    inline.children!.unshift(box);
    tokens[i - 2].attrJoin('class', 'task-item');
  }
}
