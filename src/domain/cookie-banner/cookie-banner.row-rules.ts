import { z } from 'zod';
import { storedRow, storedTime, type RowRule } from '../sync/row-rule.js';
import { detailsFromZod } from '../validation.js';
import { CookieBannerInput } from './cookie-banner.schema.js';

/** The JSON value of a text column, or undefined when the text is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A tenant's banner as stored: its categories and configuration as JSON text, together what PUT takes. */
const BannerRow = storedRow(
  { tenant_id: z.string(), categories: z.string(), config: z.string(), updated_at: storedTime },
  (row, ctx) => {
    const r = CookieBannerInput.safeParse({ categories: parsed(row.categories), config: parsed(row.config) });
    if (!r.success)
      for (const d of detailsFromZod(r.error)) ctx.addIssue({ code: 'custom', path: [d.path], message: d.message });
  },
);

export const COOKIE_BANNER_ROW_RULES: Record<string, RowRule> = {
  cookie_banner: { schema: BannerRow, fixed: ['tenant_id'], times: ['updated_at'] },
};
