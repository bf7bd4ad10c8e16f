import type { Dsfa, DsfaAuditEntry, DsfaSettings, DsfaStatus, RiskLevel } from './dsfa.schema.js';
import type { DsfaWorkflow } from './dsfa.workflow.js';
import type * as z from 'zod';

export interface DsfaFilter {
  status?: z.infer<typeof DsfaStatus>;
  risk_level?: z.infer<typeof RiskLevel>;
  /** Case-insensitive (ASCII) substring of title, description or processing activity. */
  search?: string;
  skip: number;
  limit: number;
}

/** Persistence of assessments and their audit trail, always scoped to one tenant. */
export interface DsfaStore {
  list(tenant: string, filter: DsfaFilter): Promise<Dsfa[]>;
  get(tenant: string, id: string): Promise<Dsfa | undefined>;
  insert(record: Dsfa): Promise<void>;
  replace(record: Dsfa): Promise<void>;
  remove(tenant: string, id: string): Promise<void>;
  countByStatusAndRisk(tenant: string): Promise<Array<{ status: string; risk_level: string; n: number }>>;
  appendAudit(entry: DsfaAuditEntry): Promise<void>;
  /**
   * Who changed the assessment, oldest first, and its status after each change (null once deleted): the journal's
   * record, whose principal the server sets (`key:PREFIX`, `os:NAME`), never the names a request sends.
   */
  changesBy(tenant: string, id: string): Promise<Array<{ principal: string; status: string | null }>>;
  auditLog(tenant: string, q: { limit: number; offset: number; dsfa_id?: string }): Promise<DsfaAuditEntry[]>;
  /** The tenant's review settings, or undefined when it never changed them. */
  settings(tenant: string): Promise<DsfaSettings | undefined>;
  /** The tenant's review workflow: `open` unless its settings say otherwise. */
  workflow(tenant: string): Promise<DsfaWorkflow>;
  saveSettings(tenant: string, settings: DsfaSettings): Promise<void>;
}
