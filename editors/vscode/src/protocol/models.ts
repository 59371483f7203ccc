// The wire types of the control surface the chat input completes and the
// model switch offers: agent/commands' slash commands, agent/models'
// presets, agent/setModel.

export interface CommandArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** One slash command of agent/commands; name carries its slash ("/mode"). */
export interface CommandInfo {
  name: string;
  description: string;
  arguments: CommandArgument[];
  source: string;
}

export interface ModelPrices {
  input: number;
  cachedInput: number;
  output: number;
  peak?: ModelPrices;
}

/** One preset of agent/models. */
export interface ModelPreset {
  id: string;
  provider: string;
  model: string;
  baseURL: string;
  apiKeyEnv: string;
  /** The server costs nothing (a local one): its calls cost $0. */
  free?: boolean;
  contextWindow?: number;
  /** Whether the model takes images (absent: every model but DeepSeek's). */
  vision?: boolean;
  prices?: ModelPrices;
  source?: string;
}

/** A session's model: its dialect, name and endpoint. */
export interface CurrentModel {
  provider: string;
  model: string;
  baseURL: string;
  /** The window the session's budget follows, and where it comes from (agent/models only). */
  contextWindow?: number;
  contextWindowSource?: string;
}

export interface ModelsParams {
  sessionId?: string;
}

export interface CommandsResult {
  commands: CommandInfo[] | null;
}

export interface ModelsResult {
  models: ModelPreset[];
  current?: CurrentModel;
}

/** agent/setModel's params: a preset, or a model (on a provider). */
export interface SetModelParams {
  sessionId: string;
  preset?: string;
  model?: string;
  provider?: string;
  baseURL?: string;
  apiKeyEnv?: string;
}
