import type { Tone } from '../../domain/report.js';

/** Cell shades of the risk scale, in every format: green, yellow, orange, red, light enough for black text. */
export const TONE_COLOURS: Record<Tone, string> = {
  low: '#d5efd5',
  medium: '#fff0b0',
  high: '#ffd2a6',
  critical: '#f5b3b3',
};
