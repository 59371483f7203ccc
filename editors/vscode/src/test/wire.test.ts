// Every golden message the daemon's Go types write (lsp/testdata/wire,
// refreshed by `go test ./lsp -run TestWireGolden -update`) type-checks
// against WireTypes (src/protocol/wire.ts) with the TypeScript compiler
// itself: each file's params and result become object literals of their
// declared types, so a field the Go side renamed, added or dropped is an
// unknown or missing property here. No editor and no daemon run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const extensionDir = path.resolve(__dirname, '..', '..');
const wireDir = path.resolve(extensionDir, '..', '..', 'lsp', 'testdata', 'wire');
// The generated checks live beside this test's source, so they import the
// protocol as the extension does; they are only ever in memory.
const checkFile = path.join(extensionDir, 'src', 'test', '__wire_check__.ts');

interface Golden {
  file: string;
  method: string;
  from: 'editor' | 'daemon';
  params: unknown;
  result?: unknown;
}

function readGoldens(): Golden[] {
  return fs
    .readdirSync(wireDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...(JSON.parse(fs.readFileSync(path.join(wireDir, file), 'utf8')) as Omit<Golden, 'file'>) }));
}

/** The generated source, and which golden file each of its lines checks. */
function checkSource(goldens: Golden[]): { text: string; fileAt: string[] } {
  const lines: string[] = ["import type { WireTypes } from '../protocol/wire';", ''];
  const fileAt: string[] = [];
  const emit = (file: string, text: string) => {
    for (const l of text.split('\n')) {
      lines.push(l);
      fileAt[lines.length - 1] = file;
    }
  };
  const methods = new Set<string>();
  const withResult = new Set<string>();
  goldens.forEach((g, i) => {
    const m = JSON.stringify(g.method);
    methods.add(g.method);
    emit(g.file, `export const params${i}: WireTypes[${m}]['params'] = ${JSON.stringify(g.params, null, 2)};`);
    if (g.result !== undefined) {
      withResult.add(g.method);
      emit(g.file, `export const result${i}: WireTypes[${m}]['result'] = ${JSON.stringify(g.result, null, 2)};`);
    }
  });
  // Every method WireTypes names has a golden file, and none but those.
  emit('(every method)', `export const methods: Record<keyof WireTypes, true> = {${[...methods].map((m) => `${JSON.stringify(m)}: true`).join(', ')}};`);
  // A method the daemon answers without a result has none in WireTypes.
  for (const m of methods) {
    if (withResult.has(m)) continue;
    const k = JSON.stringify(m);
    emit(`(${m})`, `export const noResult${[...methods].indexOf(m)}: 'result' extends keyof WireTypes[${k}] ? 'has a result the daemon does not send' : true = true;`);
  }
  return { text: lines.join('\n'), fileAt };
}

function typeErrors(source: string): readonly ts.Diagnostic[] {
  const config = ts.readConfigFile(path.join(extensionDir, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, extensionDir);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) =>
    path.resolve(name) === checkFile ? ts.createSourceFile(name, source, lang, true) : getSourceFile(name, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === checkFile || fileExists(name);
  const program = ts.createProgram([checkFile], options, host);
  const sf = program.getSourceFile(checkFile);
  assert.ok(sf, 'the generated check is part of the program');
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
}

test('every golden agent/* message type-checks against WireTypes', () => {
  const goldens = readGoldens();
  assert.ok(goldens.length > 0, `no golden files in ${wireDir}: go test ./lsp -run TestWireGolden -update`);
  const { text, fileAt } = checkSource(goldens);
  const problems = typeErrors(text).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    return `${fileAt[line] ?? '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.deepEqual(problems, [], `the TypeScript wire types disagree with lsp/testdata/wire:\n${problems.join('\n')}`);
});

test('the check fails on a renamed field', () => {
  // The test above cannot pass by checking nothing: a golden update with
  // one field renamed is refused.
  const update = readGoldens().find((g) => g.file === 'agent.update.text.json');
  assert.ok(update, 'agent.update.text.json exists');
  const { text: _text, ...rest } = update.params as { text: string };
  const renamed = { ...update, params: { ...rest, texts: _text } };
  const problems = typeErrors(checkSource([renamed]).text).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.ok(problems.some((p) => p.includes('texts')), problems.join('\n'));
});
