// The method names of the agent-lsp editor protocol (docs/protocol.md):
// the agent/* requests and notifications and the LSP requests the
// extension answers.

export const Methods = {
  newSession: 'agent/newSession',
  prompt: 'agent/prompt',
  sessions: 'agent/sessions',
  tools: 'agent/tools',
  compact: 'agent/compact',
  cancel: 'agent/cancel',
  update: 'agent/update',
  setMode: 'agent/setMode',
  setModel: 'agent/setModel',
  models: 'agent/models',
  commands: 'agent/commands',
  session: 'agent/session',
  review: 'agent/review',
  approve: 'agent/approve',
  checkpoints: 'agent/checkpoints',
  rewind: 'agent/rewind',
  permissions: 'agent/permissions',
  transcript: 'agent/transcript',
  queue: 'agent/queue',
  showMessageRequest: 'window/showMessageRequest',
} as const;
