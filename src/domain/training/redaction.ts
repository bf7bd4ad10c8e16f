/** Kinds of personal data the redaction recognises. */
export const PII_KINDS = ['email', 'phone', 'iban', 'card', 'ip', 'birthdate', 'address', 'person'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

export interface Redaction {
  text: string;
  /** How many distinct values of each kind were replaced (never the values). */
  counts: Partial<Record<PiiKind, number>>;
  /** Placeholder → original, to restore the text coming back; kept in memory only. */
  mapping: Map<string, string>;
}

const PLACEHOLDER: Record<PiiKind, string> = {
  email: 'EMAIL',
  phone: 'PHONE',
  iban: 'IBAN',
  card: 'CARD',
  ip: 'IP',
  birthdate: 'BIRTHDATE',
  address: 'ADDRESS',
  person: 'PERSON',
};

/** Luhn check for card numbers. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97 must be 1. */
export function ibanValid(raw: string): boolean {
  const s = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

const MONTHS =
  'Januar|Februar|März|Maerz|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|January|February|March|May|June|July|October|December';
const DATE = `(?:\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?(?:19|20)\\d{2}|(?:19|20)\\d{2}-\\d{2}-\\d{2}|\\d{1,2}\\.?\\s(?:${MONTHS})\\s(?:19|20)\\d{2}|\\d{1,2}/\\d{1,2}/(?:19|20)\\d{2})`;

/** Patterns in the order they are applied: the most specific first, so an IBAN is never half-eaten as a phone number. */
const RULES: Array<{ kind: PiiKind; re: RegExp; check?: (m: string) => boolean }> = [
  { kind: 'email', re: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu },
  { kind: 'iban', re: /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b/g, check: ibanValid },
  { kind: 'card', re: /\b\d(?:[ -]?\d){12,18}\b/g, check: (m) => luhn(m.replace(/\D/g, '')) },
  {
    kind: 'birthdate',
    re: new RegExp(
      `(?:geboren(?:\\s+am)?|geb\\.|born(?:\\s+on)?|DOB|date of birth|Geburtsdatum|Geburtstag)[:\\s]*${DATE}`,
      'giu',
    ),
  },
  { kind: 'ip', re: /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b/g },
  {
    kind: 'ip',
    re: /(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){2,7}(?::|[0-9A-Fa-f]{1,4})(?![\w:])|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?(?![\w:])/g,
    check: (m) => m.includes('::') || m.split(':').length === 8,
  },
  {
    kind: 'address',
    re: /(?<![\p{L}])(?:[\p{Lu}][\p{L}-]*(?:straße|strasse|str\.|weg|gasse|allee|platz|ring|damm|ufer|chaussee|steig|pfad)|[\p{Lu}][\p{L}-]+\s(?:Straße|Strasse|Str\.|Weg|Gasse|Allee|Platz|Ring|Damm|Ufer))\s\d{1,4}\s?[a-zA-Z]?(?:,\s*|\s+)\d{5}\s[\p{Lu}][\p{L}-]+/gu,
  },
  {
    kind: 'phone',
    re: /(?<![\w+])(?:\+\d{1,3}[\s/.-]?|\b0)(?:\(0\)\s?)?\d{2,5}(?:[\s/.-]?\d{2,}){1,4}\b/g,
    check: (m) => {
      const n = m.replace(/\D/g, '').length;
      return n >= 7 && n <= 15;
    },
  },
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces personal data with placeholders such as [EMAIL_1]; the same value gets the same placeholder throughout a
 * document. `names` are people known to the store: full names and their surnames are replaced as [PERSON_n].
 */
export function redact(input: string, names: string[] = []): Redaction {
  const mapping = new Map<string, string>();
  const byValue = new Map<string, string>();
  const seq: Partial<Record<PiiKind, number>> = {};
  const placeholder = (kind: PiiKind, value: string): string => {
    const key = `${kind}\u0000${kind === 'person' ? value.toLowerCase() : value.replace(/\s+/g, '')}`;
    let p = byValue.get(key);
    if (!p) {
      seq[kind] = (seq[kind] ?? 0) + 1;
      p = `[${PLACEHOLDER[kind]}_${seq[kind]}]`;
      byValue.set(key, p);
      mapping.set(p, value);
    }
    return p;
  };
  let text = input;
  for (const rule of RULES) {
    text = text.replace(rule.re, (m) => (rule.check && !rule.check(m) ? m : placeholder(rule.kind, m)));
  }
  const people = [...new Set(names.map((n) => n.trim()).filter((n) => n.length >= 3))];
  if (people.length) {
    // full names first, then surnames of at least four letters, so "Erika Mustermann" stays one person
    const surnames = people.map((n) => n.split(/\s+/).at(-1)!).filter((s) => s.length >= 4);
    const alternatives = [...people, ...surnames].sort((a, b) => b.length - a.length).map(escapeRe);
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
    const personOf = new Map<string, string>();
    for (const n of people) {
      personOf.set(n.toLowerCase(), n);
      const last = n.split(/\s+/).at(-1)!;
      if (!personOf.has(last.toLowerCase())) personOf.set(last.toLowerCase(), n);
    }
    text = text.replace(re, (m) => placeholder('person', personOf.get(m.toLowerCase()) ?? m));
  }
  return { text, counts: { ...seq }, mapping };
}

/** Puts the original values back into a text that carries the placeholders. */
export function restore(text: string, mapping: Map<string, string>): string {
  return text.replace(/\[(?:EMAIL|PHONE|IBAN|CARD|IP|BIRTHDATE|ADDRESS|PERSON)_\d+\]/g, (p) => mapping.get(p) ?? p);
}
