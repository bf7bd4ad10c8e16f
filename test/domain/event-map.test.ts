import { describe, expect, it } from 'vitest';
import { HISTORY_ACTIONS } from '../../src/domain/consents/consent.schema.js';
import { AUDIT_ACTIONS as DSFA_ACTIONS } from '../../src/domain/dsfa/dsfa.values.js';
import { eventsOf } from '../../src/domain/events/event.map.js';
import { EVENT_TYPES, type EventType } from '../../src/domain/events/event.schema.js';
import type { StoredEntry } from '../../src/domain/journal/chain.js';
import { AUDIT_ACTIONS as TRAINING_ACTIONS } from '../../src/domain/training/training.values.js';

/**
 * Every action of every audit trail, and the event its journal entry becomes (null: none, decided). A new action
 * fails the type check here (and the test) until someone decides whether subscribers hear of it.
 */
const DSFA: Record<(typeof DSFA_ACTIONS)[number], EventType | null> = {
  CREATE: 'dsfa.created',
  // an update is an event only when it changes the status (then dsfa.status_changed, below)
  UPDATE: null,
  DELETE: 'dsfa.deleted',
  STATUS_CHANGE: 'dsfa.status_changed',
};
const CONSENT: Record<(typeof HISTORY_ACTIONS)[number], EventType | null> = {
  granted: 'consent.granted',
  revoked: 'consent.revoked',
  version_update: 'consent.renewed',
  renewed: 'consent.renewed',
};
const TRAINING: Record<(typeof TRAINING_ACTIONS)[number], EventType | null> = {
  assigned: 'training.assigned',
  // progress inside a training, not a state subscribers act on
  started: null,
  completed: 'training.completed',
  quiz_submitted: null,
  escalated: 'training.escalated',
  certificate_issued: 'training.certificate_issued',
  // generated content is a draft until a person publishes it
  content_generated: null,
};
/** Events that come from rows rather than from an audit action. */
// consent.refused: the `granted` entry of a consent whose row records a refusal (granted=false)
const FROM_ROWS: EventType[] = ['legal_document.published', 'consents.imported', 'consent.refused'];

const entry = (entity: string, row: Record<string, unknown>): StoredEntry => ({
  tenant_id: 't1',
  seq: 1,
  txn: 'x',
  time: '2026-01-01T00:00:00.000Z',
  actor: 'a',
  principal: 'p',
  entity,
  entity_id: 'e1',
  op: 'insert',
  data_hash: '',
  prev_hash: '',
  data: JSON.stringify(row),
  hash: '',
});
const typesOf = (e: StoredEntry) => eventsOf(e).map((x) => x.type);

describe('audit actions and events', () => {
  it('decide for every audit action which event it is, or none', () => {
    expect(Object.keys(DSFA).sort()).toEqual([...DSFA_ACTIONS].sort());
    expect(Object.keys(CONSENT).sort()).toEqual([...HISTORY_ACTIONS].sort());
    expect(Object.keys(TRAINING).sort()).toEqual([...TRAINING_ACTIONS].sort());
  });

  it.each(Object.entries(DSFA))('dsfa_audit %s becomes %s', (action, type) => {
    const status = action === 'DELETE' ? {} : { status: 'in_review' };
    const row = {
      dsfa_id: 'd1',
      action,
      changed_by: 'a',
      old_values: JSON.stringify(action === 'STATUS_CHANGE' ? { status: 'draft' } : {}),
      new_values: JSON.stringify(action === 'UPDATE' ? { title: 'x' } : status),
    };
    expect(typesOf(entry('dsfa_audit', row))).toEqual(type ? [type] : []);
  });

  it('an update of a DSFA that changes its status is dsfa.status_changed', () => {
    const row = {
      dsfa_id: 'd1',
      action: 'UPDATE',
      old_values: JSON.stringify({ status: 'draft' }),
      new_values: JSON.stringify({ status: 'in_review' }),
    };
    expect(typesOf(entry('dsfa_audit', row))).toEqual(['dsfa.status_changed']);
  });

  it.each(Object.entries(CONSENT))('consent_history %s becomes %s', (action, type) => {
    const row = { consent_id: 'c1', action, consent_version: '1', source: 'api' };
    expect(typesOf(entry('consent_history', row))).toEqual(type ? [type] : []);
  });

  it.each(Object.entries(TRAINING))('training_audit %s becomes %s', (action, type) => {
    const row = { action, entity_type: 'assignment', entity_id: 'a1', actor: 'a', details: '{}' };
    expect(typesOf(entry('training_audit', row))).toEqual(type ? [type] : []);
  });

  it('every event type comes from an audit action or from a row named here', () => {
    const fromActions = [...Object.values(DSFA), ...Object.values(CONSENT), ...Object.values(TRAINING)];
    const produced = new Set([...fromActions.filter((t) => t !== null), ...FROM_ROWS]);
    expect([...produced].sort()).toEqual([...EVENT_TYPES].sort());
  });
});
