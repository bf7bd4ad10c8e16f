import { bindWith } from './short-ids.js';
import type { IdResolver } from '../../contract/operation.js';
import { trainingContract } from '../../contract/training.contract.js';
import type { Clock, IdSource } from '../../domain/clock.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import { randomBytes } from 'node:crypto';
import { TrainingService } from '../../domain/training/training.service.js';
import { trainingContentContract } from '../../contract/training-content.contract.js';
import { TrainingContentService } from '../../domain/training/content.service.js';
import { trainingBlocksContract } from '../../contract/training-blocks.contract.js';
import { TrainingBlockService } from '../../domain/training-blocks/block.service.js';
import { createCanonicalService } from './canonical.area.js';
import { trainingMediaContract } from '../../contract/training-media.contract.js';
import type { MediaObjectStore } from '../../store/media-objects.js';
import { TrainingMediaService } from './training-media.service.js';
import type { Speech } from '../../services/speech/speech.js';
import type { LlmClient } from '../../domain/training/content.llm.js';
import { DEFAULT_MODEL, OllamaClient } from '../../services/llm/llm-client.js';

export interface LlmSettings {
  /** OLLAMA_HOST */
  host?: string;
  /** COMPLIANCE_LLM_MODEL */
  model?: string;
  client?: LlmClient;
}

/** Content generation over the store's unit of work, with the language model made on first use. */
function contentService(uow: UnitOfWork, clock: Clock, ids: IdSource, llm: LlmSettings) {
  let client: LlmClient | undefined = llm.client;
  return new TrainingContentService(
    uow,
    clock,
    ids,
    () => (client ??= new OllamaClient({ host: llm.host })),
    llm.model || DEFAULT_MODEL,
  );
}

/** Content generation bound to the store (SQLite or PostgreSQL) and a language model. */
export function createTrainingContentArea(
  uow: UnitOfWork,
  clock: Clock,
  ids: IdSource,
  shortIds: IdResolver,
  llm: LlmSettings = {},
) {
  const svc = contentService(uow, clock, ids, llm);
  return bindWith(shortIds)(trainingContentContract, {
    generate: (r) => svc.generate(r.tenant, r.actor, r.body),
    generateQuiz: (r) => svc.generateQuiz(r.tenant, r.actor, r.body),
    generateAll: (r) => svc.generateAll(r.tenant, r.actor, 'content', r.body),
    generateAllQuiz: (r) => svc.generateAll(r.tenant, r.actor, 'quiz', r.body),
    published: (r) => svc.published(r.tenant, r.params.moduleId),
    publish: (r) => svc.publish(r.tenant, r.params.contentId),
  });
}

/** The training core over the store's unit of work; certificate keys come from the system's random source. */
const trainingService = (uow: UnitOfWork, clock: Clock, ids: IdSource) =>
  new TrainingService(uow, clock, ids, () => randomBytes(32).toString('hex'));

/** The training routes bound to the store (SQLite or PostgreSQL). */
export function createTrainingArea(uow: UnitOfWork, clock: Clock, ids: IdSource, shortIds: IdResolver) {
  const t = trainingService(uow, clock, ids);
  return bindWith(shortIds)(trainingContract, {
    listModules: (r) => t.listModules(r.tenant, r.query),
    createModule: (r) => t.createModule(r.tenant, r.actor, r.body),
    getModule: (r) => t.getModule(r.tenant, r.params.id),
    updateModule: (r) => t.updateModule(r.tenant, r.params.id, r.body),
    deleteModule: (r) => t.deleteModule(r.tenant, r.params.id),
    matrix: (r) => t.matrix(r.tenant),
    matrixByRole: (r) => t.matrix(r.tenant, r.params.role),
    setMatrix: (r) => t.setMatrix(r.tenant, r.body),
    unsetMatrix: (r) => t.unsetMatrix(r.tenant, r.params.role, r.params.moduleId),
    compute: (r) => t.compute(r.tenant, r.actor, r.body),
    computeMany: (r) => t.computeMany(r.tenant, r.actor, r.body.users),
    listAssignments: (r) => t.listAssignments(r.tenant, r.query),
    getAssignment: (r) => t.getAssignment(r.tenant, r.params.id),
    updateAssignment: (r) => t.updateAssignment(r.tenant, r.params.id, r.body),
    start: (r) => t.start(r.tenant, r.actor, r.params.id),
    progress: (r) => t.progress(r.tenant, r.actor, r.params.id, r.body.progress),
    complete: (r) => t.complete(r.tenant, r.actor, r.params.id),
    attempts: (r) => t.attempts(r.tenant, r.params.assignmentId),
    quiz: (r) => t.learnerQuiz(r.tenant, r.params.moduleId),
    submitQuiz: (r) => t.submitQuiz(r.tenant, r.actor, r.params.moduleId, r.body),
    deadlines: (r) => t.upcoming(r.tenant, r.query.limit, r.query.as_of),
    overdue: (r) => t.overdue(r.tenant, r.query.as_of),
    escalate: (r) => t.escalate(r.tenant, r.actor, r.body),
    generateCertificate: (r) => t.generateCertificate(r.tenant, r.actor, r.params.assignmentId),
    certificates: (r) => t.certificates(r.tenant),
    certificatePdf: async (r) => {
      const c = await t.certificate(r.tenant, r.params.id);
      const { renderCertificatePdf } = await import('../../services/certificate/certificate-pdf.js');
      return {
        content_type: 'application/pdf',
        filename: `certificate-${c.id}.pdf`,
        data: await renderCertificatePdf(c, r.query.verify_url ?? r.origin, r.query.lang),
      };
    },
    verify: (r) => t.verify(r.tenant, r.params.id),
    publicVerify: (r) => t.publicVerification(r.tenant, r.params.code),
    auditLog: (r) => t.auditLog(r.tenant, r.query),
    stats: (r) => t.stats(r.tenant),
  });
}

/** Speech, video and media bound to a store and where its media objects live. */
export function createTrainingMediaArea(
  uow: UnitOfWork,
  clock: Clock,
  ids: IdSource,
  objects: MediaObjectStore,
  shortIds: IdResolver,
  speech?: Speech,
) {
  const svc = new TrainingMediaService(
    uow,
    objects,
    clock,
    ids,
    async () => speech ?? (await import('../../services/speech/speech.js')).platformSpeech(),
  );
  return bindWith(shortIds)(trainingMediaContract, {
    generateAudio: (r) => svc.generate(r.tenant, r.params.moduleId, 'audio'),
    generateVideo: (r) => svc.generate(r.tenant, r.params.moduleId, 'video'),
    previewScript: (r) => svc.script(r.tenant, r.params.moduleId),
    list: (r) => svc.list(r.tenant, r.params.moduleId),
    url: (r) => svc.signedUrl(r.tenant, r.params.mediaId),
    publish: (r) => svc.setPublished(r.tenant, r.params.mediaId, r.body.published),
    stream: async (r) => ({ location: (await svc.signedUrl(r.tenant, r.params.mediaId)).url }),
    download: (r) => svc.download(r.tenant, r.params.mediaId),
    object: (r) => svc.object(r.tenant, r.params.mediaId, r.query),
  });
}

/** Training blocks bound to the store, the control catalogue and content generation. */
export function createTrainingBlocksArea(
  uow: UnitOfWork,
  clock: Clock,
  ids: IdSource,
  shortIds: IdResolver,
  llm: LlmSettings = {},
) {
  const svc = new TrainingBlockService(
    uow,
    createCanonicalService(uow),
    contentService(uow, clock, ids, llm),
    clock,
    ids,
  );
  return bindWith(shortIds)(trainingBlocksContract, {
    list: (r) => svc.list(r.tenant),
    create: (r) => svc.create(r.tenant, r.body),
    get: (r) => svc.get(r.tenant, r.params.id),
    update: (r) => svc.update(r.tenant, r.params.id, r.body),
    delete: (r) => svc.remove(r.tenant, r.params.id),
    preview: (r) => svc.preview(r.tenant, r.params.id),
    generate: (r) => svc.generate(r.tenant, r.actor, r.params.id, r.body),
    controls: (r) => svc.controls(r.tenant, r.params.id),
  });
}
