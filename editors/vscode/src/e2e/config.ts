// The protocol test's configuration (the JSON file e2e/protocol_test.go
// writes, named by the first argument) and the failures its checks collect.

import * as fs from 'node:fs';
import type { PlanItem } from '../protocol';

export interface Config {
  command: string[];
  root: string;
  file: string;
  originalText: string;
  expectedText: string;
  selectionLine: number;
  settings: Record<string, unknown>;
  editPrompt: string;
  expectAnswer: string;
  stallPrompt: string;
  resumePrompt: string;
  expectResumeAnswer: string;
  /** The control surface: a prompt in plan mode whose todo_write calls send these plans, then one in ask mode with mentions. */
  planPrompt: string;
  expectPlans: PlanItem[][];
  askPrompt: string;
  /** The mentions of askPrompt as "path:status". */
  expectMentions: string[];
  htmlOut?: string;
  timeoutMs: number;
  /** The review: a file whose edit has three hunks, the prompt, what the pick keeps and the feedback. */
  reviewFile: string;
  reviewOriginal: string;
  /** The text with every hunk (the diff's right side) and with the kept ones (the buffer after the edit). */
  reviewProposed: string;
  reviewExpected: string;
  reviewPrompt: string;
  reviewToolCallId: string;
  reviewKeep: number[];
  reviewFeedback: string;
}

export const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Config;
export const failures: string[] = [];
export const check = (ok: boolean, what: string): void => {
  if (!ok) failures.push(what);
};
