import { z } from 'zod';

/**
 * An integer query parameter. Query strings and CLI flags arrive as text, so text is converted first;
 * text that is not a whole number fails as a type error (400), a number out of range as a validation error (422).
 */
export const queryInt = (o: { min?: number; max?: number; default: number }) => {
  let n = z.int();
  if (o.min !== undefined) n = n.min(o.min);
  if (o.max !== undefined) n = n.max(o.max);
  return z
    .preprocess((v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim();
      return /^[-+]?\d+$/.test(t) ? Number(t) : v;
    }, n)
    .default(o.default) as unknown as z.ZodDefault<z.ZodNumber>;
};

/** A boolean query parameter or CSV cell: true/false/1/0/yes/no (any case). */
export const looseBoolean = () =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(t)) return true;
      if (['false', '0', 'no'].includes(t)) return false;
      return v;
    },
    z.boolean({
      error: (i) =>
        i.input === undefined
          ? undefined
          : `expected a boolean (true/false, 1/0, yes/no), got ${JSON.stringify(i.input)}`,
    }),
  );
