import { z } from 'zod';
import {
  DeleteResult, Dsfa, DsfaAuditEntry, DsfaAuditQuery, DsfaCreate, DsfaListQuery, DsfaStats, DsfaStatusChange,
  DsfaUpdate, IdParams,
} from '../domain/dsfa/dsfa.schema.js';
import { op } from './operation.js';

/** Impact assessments, spec 4.1. Fixed paths (stats, audit-log) come before `{id}` so they are never read as ids. */
export const dsfaContract = {
  list: op({ method: 'GET', path: '/dsfa', summary: 'List assessments', tenant: 'query', query: DsfaListQuery, output: z.array(Dsfa), status: 200 }),
  create: op({ method: 'POST', path: '/dsfa', summary: 'Create an assessment', tenant: 'query', body: DsfaCreate, output: Dsfa, status: 201 }),
  stats: op({ method: 'GET', path: '/dsfa/stats', summary: 'Assessment statistics', tenant: 'query', output: DsfaStats, status: 200 }),
  auditLog: op({ method: 'GET', path: '/dsfa/audit-log', summary: 'Audit trail of all assessments', tenant: 'query', query: DsfaAuditQuery, output: z.array(DsfaAuditEntry), status: 200 }),
  get: op({ method: 'GET', path: '/dsfa/{id}', summary: 'Read one assessment', tenant: 'query', params: IdParams, output: Dsfa, status: 200 }),
  update: op({ method: 'PUT', path: '/dsfa/{id}', summary: 'Update fields of an assessment', tenant: 'query', params: IdParams, body: DsfaUpdate, output: Dsfa, status: 200 }),
  setStatus: op({ method: 'PATCH', path: '/dsfa/{id}/status', summary: 'Change the status of an assessment', tenant: 'query', params: IdParams, body: DsfaStatusChange, output: Dsfa, status: 200 }),
  delete: op({ method: 'DELETE', path: '/dsfa/{id}', summary: 'Delete an assessment (logged, Art. 17 GDPR)', tenant: 'query', params: IdParams, output: DeleteResult, status: 200 }),
};
