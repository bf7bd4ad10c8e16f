import { Option, type Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printRecord } from '../../../output.js';
import { moduleId, req } from '../shared.js';

/** The flags every generating verb takes: the model and the language. */
export interface ModelOptions {
  model?: string;
  language: 'de' | 'en';
}

export const modelFlags = (cmd: Command) =>
  cmd
    .option('--model <name>', 'Ollama model (env COMPLIANCE_LLM_MODEL; default llama3.1:8b)')
    .addOption(new Option('--language <l>', 'de or en').choices(['de', 'en']).default('de'));

export const tokens = (r: { prompt_tokens: number; completion_tokens: number }) =>
  `${r.prompt_tokens} prompt + ${r.completion_tokens} completion tokens`;

export const redactedText = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'nothing';

/** `generate-audio` and `generate-video`: a medium of the module's published content, printed as its record. */
export async function generateMedium(ctx: CliContext, kind: 'audio' | 'video', module: string): Promise<void> {
  const b = await ctx.backend();
  const params = { moduleId: await moduleId(ctx, b, module) };
  const m = await (kind === 'audio' ? b.trainingMedia.generateAudio : b.trainingMedia.generateVideo)({
    ...req(ctx),
    params,
    body: {},
  });
  await printRecord(ctx, m, Object.entries(m));
}
