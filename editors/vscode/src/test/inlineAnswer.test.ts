import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerEntries, answerMarkdown, escapeMarkdown, threadLabel } from '../logic/inlineAnswer';
import type { Entry } from '../logic/transcript';

const prompt: Entry = { kind: 'prompt', text: 'Edit the selected code in a.go: why?' };

test('answerEntries: what the question led to, up to the next prompt; nothing once the prompt is gone', () => {
  const before: Entry = { kind: 'text', text: 'an older answer' };
  const answer: Entry = { kind: 'text', text: 'Because.' };
  const later: Entry[] = [{ kind: 'prompt', text: 'next' }, { kind: 'text', text: 'next answer' }];
  assert.deepEqual(answerEntries([before, prompt, answer, ...later], { prompt }), [answer]);
  assert.deepEqual(answerEntries([before, prompt], { prompt }), []);
  // A rewind redrew the transcript: the same text is another entry.
  assert.equal(answerEntries([before, { ...prompt }, answer], { prompt }), undefined);
});

test('answerMarkdown: the text as markdown, a line per tool call, the error; what it waits for before anything came', () => {
  assert.equal(answerMarkdown([], 'running'), '$(loading~spin) Asking the model…');
  assert.equal(answerMarkdown([], 'running', 'Reading a.go'), '$(loading~spin) Reading a\\.go…');
  const entries: Entry[] = [
    { kind: 'reasoning', text: 'hidden thoughts' },
    { kind: 'text', text: '### Why\n\nIt **counts**.\n' },
    { kind: 'tool', toolCallId: 't', name: 'edit_file', detail: 'a.go', status: 'completed' },
    { kind: 'round', usage: { promptTokens: 1, completionTokens: 1 }, cost: 0 } as Entry,
  ];
  assert.equal(answerMarkdown(entries, 'done'), '### Why\n\nIt **counts**.\n\n$(check) edit_file `a.go`');
  assert.equal(answerMarkdown(entries.slice(0, 2), 'running', 'Thinking'), '### Why\n\nIt **counts**.\n\n$(loading~spin) *Thinking…*');
  assert.equal(answerMarkdown([{ kind: 'error', message: 'model unreachable [x]' }], 'failed'), '$(error) *model unreachable \\[x\\]*');
  assert.equal(answerMarkdown([], 'cancelled'), '*Cancelled.*');
  assert.match(answerMarkdown([], 'failed'), /not answered/);
});

test('threadLabel and escapeMarkdown', () => {
  assert.equal(threadLabel('a.go:3-3', 'running'), 'agent-lsp · a.go:3-3 · answering');
  assert.equal(threadLabel('a.go:3-3', 'done'), 'agent-lsp · a.go:3-3 · answered');
  assert.equal(escapeMarkdown('*a* _b_ `c` $(x)'), '\\*a\\* \\_b\\_ \\`c\\` \\$\\(x\\)');
});
