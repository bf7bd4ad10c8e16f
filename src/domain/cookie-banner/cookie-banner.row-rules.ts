import * as z from 'zod';
import { jsonText, storedRow, storedTime, type RowRule } from '../sync/row-rule.js';
import { CookieBannerInput } from './cookie-banner.schema.js';

/**
 * A tenant's banner as stored: its categories and configuration as JSON text, together what PUT takes (checked as
 * one, as PUT checks them: a required category must be enabled by default).
 */
const BannerRow = storedRow(
  { tenant_id: z.string(), categories: jsonText(z.unknown()), config: jsonText(z.unknown()), updated_at: storedTime },
  (row, ctx) =>
    CookieBannerInput.safeParse(row, { reportInput: true }).error?.issues.forEach((issue) =>
      ctx.addIssue({ ...issue }),
    ),
);

// no fixed columns: the banner's journal id is its tenant, which the door compares first
export const COOKIE_BANNER_ROW_RULES: Record<string, RowRule> = {
  cookie_banner: { schema: BannerRow, times: ['updated_at'] },
};
