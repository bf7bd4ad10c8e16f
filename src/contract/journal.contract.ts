import { JournalAnchor, JournalPage, JournalQuery } from '../domain/journal/journal.schema.js';
import { op } from './operation.js';

/** The tenant's journal: every change in order, hash-chained (our addition; the change feed of sync and events). */
export const journalContract = {
  page: op({
    method: 'GET',
    path: '/journal',
    summary: 'Entries after a sequence number, oldest first, paged by sequence (our addition)',
    tenant: 'header',
    query: JournalQuery,
    output: JournalPage,
    status: 200,
  }),
  anchor: op({
    method: 'GET',
    path: '/journal/anchor',
    summary: 'The head of the tenant’s chain, to keep outside the store (our addition)',
    tenant: 'header',
    output: JournalAnchor,
    status: 200,
  }),
};
