import { CONSENT_ROW_RULES } from '../consents/consent.row-rules.js';
import { COOKIE_BANNER_ROW_RULES } from '../cookie-banner/cookie-banner.row-rules.js';
import { DSFA_ROW_RULES } from '../dsfa/dsfa.row-rules.js';
import { LEGAL_DOCUMENT_ROW_RULES } from '../legal-documents/legal-document.row-rules.js';
import { BLOCK_ROW_RULES } from '../training-blocks/block.row-rules.js';
import { CONTENT_ROW_RULES } from '../training/content.row-rules.js';
import { TRAINING_ROW_RULES } from '../training/training.row-rules.js';
import type { RowRule } from './row-rule.js';

/** The rules of every table whose records travel (a sync, a bundle), each kept beside its area's domain code. */
export const ROW_RULES: Record<string, RowRule> = {
  ...DSFA_ROW_RULES,
  ...CONSENT_ROW_RULES,
  ...LEGAL_DOCUMENT_ROW_RULES,
  ...COOKIE_BANNER_ROW_RULES,
  ...TRAINING_ROW_RULES,
  ...CONTENT_ROW_RULES,
  ...BLOCK_ROW_RULES,
};
