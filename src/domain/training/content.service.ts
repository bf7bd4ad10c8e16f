import { isoZ, type Clock, type IdSource } from '../clock.js';
import { conflict, DomainError, notFound } from '../errors.js';
import type { LlmClient } from './content.llm.js';
import { contentPrompt, parseQuiz, quizPrompt, type ModuleBrief } from './content.prompts.js';
import type { Content, GenerateAllResult } from './content.schema.js';
import type { TrainingContentStore } from './content.store.js';
import { redact, type PiiKind } from './redaction.js';
import type { UnitOfWork } from '../unit-of-work.js';

type Counts = Partial<Record<PiiKind, number>>;
const addCounts = (a: Counts, b: Counts): Counts => {
  const out = { ...a };
  for (const [k, n] of Object.entries(b)) out[k as PiiKind] = (out[k as PiiKind] ?? 0) + (n ?? 0);
  return out;
};

/**
 * Content and quiz generation: every prompt is redacted before it leaves the process and every answer after it comes
 * back; the kinds and counts (never the values) go into the training audit log with the tokens used. The language
 * model is asked outside any unit of work (a unit of work may run more than once, and must not wait on a model);
 * what it answered is then written in one, with its audit entry.
 */
export class TrainingContentService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdSource,
    private readonly llm: () => LlmClient,
    private readonly defaultModel: string,
  ) {}

  /** The store for reads outside a unit of work. */
  private get store(): TrainingContentStore {
    return this.uow.read.trainingContent;
  }

  private async ask(tenant: string, p: { system: string; prompt: string }, model: string, json: boolean) {
    const people = await this.store.assignedNames(tenant);
    const sent = redact(p.prompt, people);
    const system = redact(p.system, people);
    const r = await this.llm().generate({
      model,
      system: system.text,
      prompt: sent.text,
      format: json ? 'json' : undefined,
    });
    const back = redact(r.text, people);
    return {
      text: back.text,
      redacted: addCounts(addCounts(sent.counts, system.counts), back.counts),
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
    };
  }

  private async brief(tenant: string, moduleId: string): Promise<ModuleBrief & { id: string }> {
    const m = await this.store.getModule(tenant, moduleId);
    if (!m) throw notFound('training module', moduleId);
    return m;
  }

  private async logGenerated(
    store: TrainingContentStore,
    tenant: string,
    actor: string | undefined,
    moduleId: string,
    details: Record<string, unknown>,
  ) {
    await store.appendAudit([
      {
        id: this.ids.next(),
        tenant_id: tenant,
        action: 'content_generated',
        entity_type: 'module',
        entity_id: moduleId,
        actor: actor ?? 'system',
        details,
        created_at: isoZ(this.clock.now()),
      },
    ]);
  }

  async generate(
    tenant: string,
    actor: string | undefined,
    body: { module_id: string; language: 'de' | 'en'; model?: string },
  ) {
    const m = await this.brief(tenant, body.module_id);
    const model = body.model ?? this.defaultModel;
    const r = await this.ask(tenant, contentPrompt(m, body.language), model, false);
    if (!r.text.trim()) throw new DomainError('unavailable', `the model ${model} answered with an empty text`);
    const now = isoZ(this.clock.now());
    // the next version number and the row in one transaction, so concurrent generations number their versions apart
    const content = await this.uow.write(tenant, async ({ trainingContent: store }) => {
      const c: Content = {
        id: this.ids.next(),
        module_id: m.id,
        version: (await store.lastVersion(tenant, m.id)) + 1,
        language: body.language,
        markdown: r.text,
        status: 'draft',
        created_at: now,
        published_at: null,
      };
      await store.insertContent(tenant, c);
      await this.logGenerated(store, tenant, actor, m.id, {
        kind: 'content',
        content_id: c.id,
        model,
        redacted: r.redacted,
        prompt_tokens: r.prompt_tokens,
        completion_tokens: r.completion_tokens,
      });
      return c;
    });
    return {
      ...content,
      redacted: r.redacted as Record<string, number>,
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
    };
  }

  async generateQuiz(
    tenant: string,
    actor: string | undefined,
    body: { module_id: string; count: number; language: 'de' | 'en'; model?: string },
  ) {
    const m = await this.brief(tenant, body.module_id);
    const model = body.model ?? this.defaultModel;
    const published = await this.store.publishedContent(tenant, m.id);
    const base = quizPrompt(m, body.count, body.language, published?.markdown);
    let redacted: Counts = {};
    let tokens = { prompt_tokens: 0, completion_tokens: 0 };
    let problems: string[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const p =
        attempt === 0
          ? base
          : {
              ...base,
              prompt: `${base.prompt}\n\nYour previous answer was refused: ${problems.join('; ')}. Answer again with valid JSON in exactly the format above.`,
            };
      const r = await this.ask(tenant, p, model, true);
      redacted = addCounts(redacted, r.redacted);
      tokens = {
        prompt_tokens: tokens.prompt_tokens + r.prompt_tokens,
        completion_tokens: tokens.completion_tokens + r.completion_tokens,
      };
      const parsed = parseQuiz(r.text, body.count);
      if (parsed.ok) {
        // the old questions go and the new ones come in one transaction: a learner never sees half a quiz
        await this.uow.write(tenant, async ({ trainingContent: store }) => {
          await store.replaceQuestions(
            tenant,
            m.id,
            parsed.questions.map((q, position) => ({ ...q, id: this.ids.next(), module_id: m.id, position })),
          );
          await this.logGenerated(store, tenant, actor, m.id, {
            kind: 'quiz',
            model,
            questions: parsed.questions.length,
            attempts: attempt + 1,
            redacted,
            ...tokens,
          });
        });
        return {
          module_id: m.id,
          questions: await this.store.questions(tenant, m.id),
          redacted: redacted as Record<string, number>,
          ...tokens,
        };
      }
      problems = parsed.problems;
    }
    throw new DomainError(
      'unavailable',
      `the model ${model} did not answer with a valid quiz, also after one retry: ${problems.slice(0, 5).join('; ')}`,
      problems.slice(0, 20).map((message) => ({ path: 'quiz', message })),
    );
  }

  async published(tenant: string, moduleId: string): Promise<Content> {
    await this.brief(tenant, moduleId);
    const c = await this.store.publishedContent(tenant, moduleId);
    if (!c) throw notFound('published content of module', moduleId);
    return c;
  }

  /** Publishes a version and archives the one published before, in one transaction: one published version at most. */
  publish(tenant: string, contentId: string): Promise<Content> {
    return this.uow.write(tenant, async ({ trainingContent: store }) => {
      const c = await store.content(tenant, contentId);
      if (!c) throw notFound('content', contentId);
      if (c.status === 'published') throw conflict(`content ${contentId} is already published`);
      const now = isoZ(this.clock.now());
      await store.archivePublished(tenant, c.module_id);
      await store.markPublished(tenant, contentId, now);
      return { ...c, status: 'published', published_at: now };
    });
  }

  /** Content (or a quiz) for every module that has none, a few at a time. */
  async generateAll(
    tenant: string,
    actor: string | undefined,
    kind: 'content' | 'quiz',
    o: { language: 'de' | 'en'; model?: string; dry_run: boolean; concurrency: number; count: number },
  ): Promise<GenerateAllResult> {
    const modules = await this.store.modulesWithout(tenant, kind);
    const results: GenerateAllResult['results'] = modules.map((m) => ({
      module_id: m.id,
      module_code: m.module_code,
      status: 'planned',
      error: null,
      prompt_tokens: 0,
      completion_tokens: 0,
    }));
    if (!o.dry_run)
      await generateEach(results, o.concurrency, (module_id) =>
        kind === 'content'
          ? this.generate(tenant, actor, { module_id, language: o.language, model: o.model })
          : this.generateQuiz(tenant, actor, { module_id, count: o.count, language: o.language, model: o.model }),
      );
    return summarizeGenerations(results, o.dry_run);
  }
}

type Generation = GenerateAllResult['results'][number];

/**
 * Generates for each planned module, `concurrency` at a time, and records in its row what came of it: a failure
 * marks its row and the others go on. The one loop of every face: the service runs it over its own generations, the
 * command line over requests to the backend (one per module, so a terminal shows progress, with --remote too).
 */
export async function generateEach(
  results: Generation[],
  concurrency: number,
  generateOne: (moduleId: string) => Promise<{ prompt_tokens: number; completion_tokens: number }>,
  onEach?: () => void,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < results.length) {
      const r = results[next++]!;
      try {
        const g = await generateOne(r.module_id);
        Object.assign(r, {
          status: 'generated',
          prompt_tokens: g.prompt_tokens,
          completion_tokens: g.completion_tokens,
        });
      } catch (e) {
        Object.assign(r, { status: 'failed', error: (e as Error).message });
      }
      onEach?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, results.length) }, worker));
}

/** The counts and tokens of a run of `generateEach`. */
export function summarizeGenerations(results: Generation[], dry_run: boolean): GenerateAllResult {
  const sum = (k: 'prompt_tokens' | 'completion_tokens') => results.reduce((n, r) => n + r[k], 0);
  return {
    results,
    generated: results.filter((r) => r.status === 'generated').length,
    failed: results.filter((r) => r.status === 'failed').length,
    prompt_tokens: sum('prompt_tokens'),
    completion_tokens: sum('completion_tokens'),
    dry_run,
  };
}
