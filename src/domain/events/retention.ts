/** How long finished webhook deliveries and sent e-mail are kept when nothing says otherwise, in days. */
export const KEEP_DAYS = 90;
/** The longest retention that can be set (COMPLIANCE_EVENTS_KEEP_DAYS, `events prune --older-than`): six digits. */
export const MAX_KEEP_DAYS = 999_999;
