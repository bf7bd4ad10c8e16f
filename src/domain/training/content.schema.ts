import * as z from 'zod';
import { nonBlank } from '../schema-helpers.js';
import { Question } from './training.schema.js';

const Language = z.enum(['de', 'en']);
const Model = nonBlank(200).optional();
const Redacted = z.record(z.string(), z.int());

export const Content = z.object({
  id: z.string(),
  module_id: z.string(),
  version: z.int(),
  language: z.string(),
  markdown: z.string(),
  status: z.enum(['draft', 'published', 'archived']),
  created_at: z.string(),
  published_at: z.string().nullable(),
});
export type Content = z.infer<typeof Content>;
export const GenerateContent = z.object({
  module_id: z.string().min(1),
  language: Language.default('de'),
  model: Model,
});
export const GeneratedContent = Content.extend({
  redacted: Redacted,
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
});
export const GenerateQuiz = z.object({
  module_id: z.string().min(1),
  count: z.int().min(1).max(30).default(5),
  language: Language.default('de'),
  model: Model,
});
export const GeneratedQuiz = z.object({
  module_id: z.string(),
  questions: z.array(Question),
  redacted: Redacted,
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
});
export const GenerateAll = z.object({
  language: Language.default('de'),
  model: Model,
  dry_run: z.boolean().default(false),
  concurrency: z.int().min(1).max(16).default(2),
  count: z.int().min(1).max(30).default(5),
});
export const GenerateAllResult = z.object({
  results: z.array(
    z.object({
      module_id: z.string(),
      module_code: z.string(),
      status: z.enum(['planned', 'generated', 'failed']),
      error: z.string().nullable(),
      prompt_tokens: z.int(),
      completion_tokens: z.int(),
    }),
  ),
  generated: z.int(),
  failed: z.int(),
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  dry_run: z.boolean(),
});
export type GenerateAllResult = z.infer<typeof GenerateAllResult>;
