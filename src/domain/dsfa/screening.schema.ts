import * as z from 'zod';
import { DSFA_TRIGGERS, WP248_CRITERIA } from './screening.js';

const criterionIds = WP248_CRITERIA.map((c) => c.id) as [string, ...string[]];
const triggerIds = DSFA_TRIGGERS.map((c) => c.id) as [string, ...string[]];

/** Screening answers as they arrive from flags or a JSON file. */
export const ScreeningAnswersSchema = z.object({
  title: z.string().trim().min(1).optional(),
  processing_activity: z.string().optional(),
  criteria: z.array(z.enum(criterionIds)).default([]),
  triggers: z.array(z.enum(triggerIds)).default([]),
});
