/** Where "now" comes from; domain code never calls `new Date()` itself. */
export interface Clock {
  now(): Date;
}

/** Where new identifiers come from; domain code never calls `randomUUID()` itself. */
export interface IdSource {
  next(): string;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock fixed at one instant, for tests and for "as of" computations. */
export const fixedClock = (at: Date | string): Clock => {
  const d = typeof at === 'string' ? new Date(at) : at;
  return { now: () => new Date(d.getTime()) };
};

/** ISO timestamp in UTC without a zone designator, as DSFA records carry them: 2026-11-22T10:15:30.123 */
export const isoLocal = (d: Date): string => d.toISOString().slice(0, -1);

/** ISO timestamp in UTC with Z, as every other resource carries them. */
export const isoZ = (d: Date): string => d.toISOString();

/** Whether `zone` is an IANA time zone name this runtime knows (Europe/Berlin, UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
