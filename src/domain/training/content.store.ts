import type { Content } from './content.schema.js';
import type { TrainingStore } from './training-store.port.js';

/**
 * Persistence of generated content versions and quizzes (and the modules they belong to), scoped to one tenant;
 * written inside a unit of work.
 */
export interface TrainingContentStore extends Pick<
  TrainingStore,
  'getModule' | 'questions' | 'replaceQuestions' | 'appendAudit'
> {
  /** The modules that have no content version (`content`) or no question (`quiz`) yet, ordered by code. */
  modulesWithout(tenant: string, what: 'content' | 'quiz'): Promise<Array<{ id: string; module_code: string }>>;
  /** The names of everyone with an assignment: the people redaction hides from the language model. */
  assignedNames(tenant: string): Promise<string[]>;
  /** The highest content version of a module; 0 when it has none. */
  lastVersion(tenant: string, moduleId: string): Promise<number>;
  insertContent(tenant: string, content: Content): Promise<void>;
  content(tenant: string, id: string): Promise<Content | undefined>;
  publishedContent(tenant: string, moduleId: string): Promise<Content | undefined>;
  /** Archives the module's published version, if it has one. */
  archivePublished(tenant: string, moduleId: string): Promise<void>;
  markPublished(tenant: string, id: string, at: string): Promise<void>;
}
