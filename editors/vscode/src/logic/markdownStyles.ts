// The chat's styles for rendered answers: markdown elements in VS Code's
// theme variables, code blocks with their head (language, Copy / Insert /
// Apply), and highlight.js's token classes in the colours of VS Code's
// Dark+ / Light+ (the webview's body carries vscode-dark / vscode-light /
// vscode-high-contrast; a page outside VS Code gets Dark+).

export const markdownStyles = `
.body.markdown { white-space: normal; }
.markdown > div > :first-child, .markdown > :first-child { margin-top: 0; }
.markdown p { margin: 0 0 0.6em; }
.markdown h1, .markdown h2, .markdown h3, .markdown h4, .markdown h5, .markdown h6 { margin: 0.9em 0 0.4em; line-height: 1.25; font-weight: 600; }
.markdown h1 { font-size: 1.35em; } .markdown h2 { font-size: 1.2em; } .markdown h3 { font-size: 1.1em; }
.markdown h4, .markdown h5, .markdown h6 { font-size: 1em; }
.markdown ul, .markdown ol { margin: 0 0 0.6em; padding-left: 2.2em; }
.markdown ol { padding-left: 2.8em; }
.markdown li { margin: 0.15em 0; }
.markdown li > p { margin: 0.2em 0; }
.markdown li.task-item { list-style: none; }
.markdown li.task-item input { margin: 0 0.35em 0 -1.3em; vertical-align: middle; }
.markdown blockquote { margin: 0 0 0.6em; padding: 2px 0 2px 10px; opacity: 0.9;
  border-left: 3px solid var(--vscode-textBlockQuote-border, rgba(128,128,128,0.5));
  background: var(--vscode-textBlockQuote-background, transparent); }
.markdown table { border-collapse: collapse; margin: 0 0 0.6em; display: block; overflow-x: auto; max-width: 100%; }
.markdown th, .markdown td { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); padding: 3px 8px; }
.markdown th { font-weight: 600; background: var(--vscode-editorWidget-background, rgba(128,128,128,0.1)); }
.markdown hr { border: none; border-top: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); margin: 0.8em 0; }
.markdown a { color: var(--vscode-textLink-foreground, #3794ff); text-decoration: none; cursor: pointer; }
.markdown a:hover { text-decoration: underline; color: var(--vscode-textLink-activeForeground, #3794ff); }
.markdown a.path-link code { color: inherit; }
.markdown del { opacity: 0.7; }
.codeblock { margin: 0 0 0.6em; border-radius: 4px; overflow: hidden;
  border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.3));
  background: var(--vscode-textCodeBlock-background, rgba(128,128,128,0.12)); }
.codeblock-head { display: flex; align-items: center; justify-content: space-between; gap: 6px; padding: 2px 4px 2px 8px;
  font-size: 0.85em; border-bottom: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.3));
  background: var(--vscode-editorWidget-background, rgba(128,128,128,0.08)); }
.codeblock-lang { opacity: 0.75; font-family: var(--vscode-editor-font-family, monospace); }
.codeblock-actions { display: flex; gap: 2px; }
.codeblock-actions button { padding: 1px 7px; font-size: 0.95em; color: var(--vscode-foreground, inherit); background: transparent; border-radius: 3px; }
.codeblock-actions button:hover, .codeblock-actions button:focus-visible { background: var(--vscode-toolbar-hoverBackground, rgba(128,128,128,0.25)); }
.codeblock pre { margin: 0; padding: 6px 8px; overflow-x: auto; white-space: pre; overflow-wrap: normal; tab-size: 4; }
.codeblock code { background: none; padding: 0; border-radius: 0; font-size: 1em; }
.hljs-keyword, .hljs-literal, .hljs-symbol, .hljs-name, .hljs-selector-tag, .hljs-tag { color: #569cd6; }
.hljs-built_in, .hljs-type, .hljs-title.class_, .hljs-class .hljs-title { color: #4ec9b0; }
.hljs-string, .hljs-char.escape_, .hljs-selector-attr, .hljs-template-tag { color: #ce9178; }
.hljs-number, .hljs-quote { color: #b5cea8; }
.hljs-comment { color: #6a9955; font-style: italic; }
.hljs-title, .hljs-title.function_, .hljs-section { color: #dcdcaa; }
.hljs-variable, .hljs-attr, .hljs-attribute, .hljs-property, .hljs-params, .hljs-template-variable { color: #9cdcfe; }
.hljs-meta, .hljs-meta .hljs-keyword { color: #c586c0; }
.hljs-regexp, .hljs-link { color: #d16969; }
.hljs-addition { color: #b5cea8; background: rgba(155,185,85,0.15); }
.hljs-deletion { color: #ce9178; background: rgba(255,0,0,0.15); }
.hljs-emphasis { font-style: italic; } .hljs-strong { font-weight: bold; }
body.vscode-light .hljs-keyword, body.vscode-light .hljs-literal, body.vscode-light .hljs-symbol,
body.vscode-light .hljs-name, body.vscode-light .hljs-selector-tag, body.vscode-light .hljs-tag { color: #0000ff; }
body.vscode-light .hljs-built_in, body.vscode-light .hljs-type, body.vscode-light .hljs-title.class_ { color: #267f99; }
body.vscode-light .hljs-string, body.vscode-light .hljs-selector-attr, body.vscode-light .hljs-template-tag { color: #a31515; }
body.vscode-light .hljs-number, body.vscode-light .hljs-quote { color: #098658; }
body.vscode-light .hljs-comment { color: #008000; }
body.vscode-light .hljs-title, body.vscode-light .hljs-title.function_, body.vscode-light .hljs-section { color: #795e26; }
body.vscode-light .hljs-variable, body.vscode-light .hljs-attr, body.vscode-light .hljs-attribute,
body.vscode-light .hljs-property, body.vscode-light .hljs-params { color: #001080; }
body.vscode-light .hljs-meta, body.vscode-light .hljs-meta .hljs-keyword { color: #af00db; }
body.vscode-light .hljs-regexp, body.vscode-light .hljs-link { color: #811f3f; }
body.vscode-high-contrast .hljs-comment { color: #7ca668; }
`;
