/** One completion request; `format: 'json'` asks the model for a JSON document. */
export interface LlmRequest {
  model: string;
  system?: string;
  prompt: string;
  format?: 'json';
}

export interface LlmResult {
  text: string;
  prompt_tokens: number;
  completion_tokens: number;
}

/** A language model behind a narrow interface: the real one (services/llm) talks to Ollama. */
export interface LlmClient {
  generate(req: LlmRequest): Promise<LlmResult>;
}
