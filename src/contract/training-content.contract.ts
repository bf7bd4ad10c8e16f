import * as z from 'zod';
import {
  Content,
  GenerateAll,
  GenerateAllResult,
  GenerateContent,
  GeneratedContent,
  GeneratedQuiz,
  GenerateQuiz,
} from '../domain/training/content.schema.js';
import { ModuleIdParams } from '../domain/training/training.schema.js';
import { NoBody, op } from './operation.js';

const H = 'header' as const;

/** Content generation through a language model (spec 4.5 content routes; `model`, `dry_run` and `concurrency` are ours). */
export const trainingContentContract = {
  generate: op({
    method: 'POST',
    path: '/training/content/generate',
    ids: { body: { module_id: 'training_module' } },
    summary: 'Generate learning content (Markdown) for a module',
    tenant: H,
    body: GenerateContent,
    output: GeneratedContent,
    status: 201,
    raises: ['not_found', 'conflict'],
  }),
  generateQuiz: op({
    method: 'POST',
    path: '/training/content/generate-quiz',
    ids: { body: { module_id: 'training_module' } },
    summary: 'Generate quiz questions (replaces the module questions)',
    tenant: H,
    body: GenerateQuiz,
    output: GeneratedQuiz,
    status: 201,
    raises: ['not_found', 'conflict'],
  }),
  generateAll: op({
    method: 'POST',
    path: '/training/content/generate-all',
    summary: 'Content for every module without content',
    tenant: H,
    body: GenerateAll,
    output: GenerateAllResult,
    status: 200,
  }),
  generateAllQuiz: op({
    method: 'POST',
    path: '/training/content/generate-all-quiz',
    summary: 'Quizzes for every module without questions',
    tenant: H,
    body: GenerateAll,
    output: GenerateAllResult,
    status: 200,
  }),
  published: op({
    method: 'GET',
    path: '/training/content/{moduleId}',
    ids: { params: { moduleId: 'training_module' } },
    summary: 'The published content of a module',
    tenant: H,
    params: ModuleIdParams,
    output: Content,
    status: 200,
  }),
  publish: op({
    method: 'POST',
    path: '/training/content/{contentId}/publish',
    ids: { params: { contentId: 'training_content' } },
    summary: 'Publish a content version (archives the previous one)',
    tenant: H,
    params: z.object({ contentId: z.string().min(1) }),
    body: NoBody,
    output: Content,
    status: 200,
    raises: ['conflict'],
  }),
};
