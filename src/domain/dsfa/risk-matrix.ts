import { RISK_LEVELS } from './dsfa.values.js';

export type Level = (typeof RISK_LEVELS)[number];

/** A level's place on the scale: low 1, medium 2, high 3, critical 4. */
export const rank = (l: Level): number => RISK_LEVELS.indexOf(l) + 1;

/**
 * The level of a risk from its likelihood and severity: their product on the 1–4 scale, 1–2 low, 3–4 medium, 6–9
 * high, 12–16 critical. So a critical harm that is unlikely is still medium, and one that is likely is critical.
 */
export function riskLevel(likelihood: Level, severity: Level): Level {
  const score = rank(likelihood) * rank(severity);
  if (score <= 2) return 'low';
  if (score <= 4) return 'medium';
  if (score <= 9) return 'high';
  return 'critical';
}

/** The highest of some levels, or undefined for none. */
export function highest(levels: Level[]): Level | undefined {
  return levels.reduce<Level | undefined>((top, l) => (top === undefined || rank(l) > rank(top) ? l : top), undefined);
}
