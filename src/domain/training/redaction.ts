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

/**
 * Card numbers by brand prefix and length (Visa, Mastercard incl. the 2-series, Amex, Diners, JCB, Discover, Maestro,
 * UnionPay): a Luhn-valid number outside these is an article or customer number, not a card.
 */
const CARD_BRANDS: Array<[RegExp, number, number]> = [
  [/^4/, 16, 19],
  [/^(?:5[1-5]|2[2-7])/, 16, 16],
  [/^3[47]/, 15, 15],
  [/^3[0689]/, 14, 19],
  [/^35/, 16, 19],
  [/^(?:5[06-9]|6)/, 12, 19],
];

/** A card number as people write it: a known brand, groups of at least three digits, Luhn-valid. */
export function cardNumber(raw: string): boolean {
  const digits = raw.replace(/\D/g, '');
  const groups = raw.split(/[ -]/);
  if (groups.length > 1 && groups.some((g) => g.length < 3)) return false;
  const brand = CARD_BRANDS.some(([re, min, max]) => re.test(digits) && digits.length >= min && digits.length <= max);
  return brand && luhn(digits);
}

// A number introduced as an identifier ("Kundennummer", "GTIN", "no.") is not a phone number, unless the label is a
// phone label ("Telefonnummer", "phone number"); a dotted quad after "Version" or "Abschnitt" is not an address.
const ID_LABEL = /(?:nummer|nr\.?|no\.?|number|\bid|gtin|ean|isbn|az\.?)[\s:#.]*$/i;
const PHONE_LABEL =
  /(?:telefon|tel\.?|ruf|handy|mobil|fax|phone|mobile|cell)[\s-]*(?:nummer|nr\.?|no\.?|number)[\s:#.]*$/i;
const VERSION_LABEL =
  /(?:version|release|build|android|ios|windows|firmware|software|abschnitt|section|clause|ziffer|punkt|kapitel|chapter|paragraph|anlage|anhang|annex|appendix|tabelle|table|abbildung|figure|§)\s*$/i;

/**
 * The longest valid IBAN at the start of a match, cut at a group boundary: "AT03 0088 4890 9027 5089 den" is an IBAN
 * and a word, as the last group of an IBAN may be shorter than four. Empty when there is none.
 */
function ibanPrefix(m: string): string {
  for (let v = m; v.replace(/\s/g, '').length >= 15; v = v.replace(/[ ]?[A-Za-z0-9]{1,4}$/, ''))
    if (ibanValid(v)) return v;
  return '';
}

const MONTHS = [
  'Januar|Jänner|Februar|Feber|März|Maerz|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember',
  'January|February|March|May|June|July|October|December',
  'Jan|Feb|Mär|Mrz|Apr|Jun|Jul|Aug|Sept|Sep|Okt|Oct|Nov|Dez|Dec',
].join('|');
const YEAR = '(?:19|20)\\d{2}';
const DATE = [
  `\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?(?:${YEAR}|\\d{2})(?!\\d)`,
  `${YEAR}-\\d{2}-\\d{2}`,
  `\\d{1,2}(?:\\.|st|nd|rd|th)?\\s(?:of\\s)?(?:${MONTHS})\\.?\\s${YEAR}`,
  `(?:${MONTHS})\\.?\\s\\d{1,2}(?:st|nd|rd|th)?,?\\s${YEAR}`,
  `\\d{1,2}/\\d{1,2}/${YEAR}`,
].join('|');
const BIRTH_CUE =
  '(?<!\\p{L})(?:geboren|geb\\.(?:-Datum)?|Geburtsdatum|Geburtstag|born|DOB|d\\.o\\.b\\.|date of birth|birth date|birthday)(?!\\p{L})|\\*';

// Street names: one word with a street suffix, a hyphenated name ending in one, two words ending in one, or a
// preposition and a noun ("Am Markt", "Unter den Linden", "Rue du Rhône"): then a house number, a postcode (4 digits
// in Austria and Switzerland) and the town, which holds the street apart from "Platz 1" or "Art. 35 Abs. 7".
const SUFFIX =
  'straße|strasse|str\\.|weg|gasse|allee|platz|ring|damm|ufer|chaussee|steig|stieg|pfad|markt|graben|wall|kai|park|garten|anger|brücke|promenade|zeile|hof|tor|berg|feld|stadt|dorf|hafen|wiese|wiesen|winkel|bogen|kamp|steg|reihe|höhe|tal|aue';
const SUFFIX_WORD =
  'Straße|Strasse|Str\\.|Weg|Gasse|Allee|Platz|Ring|Damm|Ufer|Markt|Graben|Kai|Tor|Steig|Stieg|Park|Wall|Reihe';
const PREPOSITION =
  'Am|An der|An den|Auf dem|Auf der|Im|In der|In den|Zum|Zur|Unter den|Hinter dem|Hinterm|Vor dem|Beim|Bei der|Alte[rs]?|Neue[rs]?|Hohe[rs]?|Große[rs]?|Kleine[rs]?';
const STREET = [
  `(?:[\\p{Lu}]\\p{L}+(?:e|er|es|en)\\s)?[\\p{Lu}][\\p{L}-]*(?:${SUFFIX})`,
  `[\\p{Lu}][\\p{L}-]*-(?:${SUFFIX_WORD})`,
  `[\\p{Lu}][\\p{L}-]+\\s(?:${SUFFIX_WORD})`,
  `(?:${PREPOSITION})\\s[\\p{Lu}][\\p{L}-]+`,
  `(?:Rue|Avenue|Boulevard|Chemin|Place|Quai|Via|Viale|Piazza|Corso)\\s(?:de la\\s|d[eu]s?\\s|della\\s|l'|d')?[\\p{Lu}][\\p{L}-]+`,
].join('|');
const TOWN =
  '[\\p{Lu}][\\p{L}-]+(?:\\s(?:am|an der|im|ob der|bei|in der)\\s[\\p{Lu}][\\p{L}-]+|\\s\\([\\p{Lu}]\\p{L}+\\))?';
const ADDRESS = `(?<!\\p{L})(?:${STREET})\\s\\d{1,4}(?:\\s?[a-zA-Z](?!\\p{L}))?(?:[-–/]\\d{1,4})?(?:,\\s*|\\s*[·|]\\s*|\\s+)(?:(?:D|A|CH)-)?\\d{4,5}\\s${TOWN}`;

// Phone numbers: an international prefix (+49, 0049) and an area code, optionally "(0)" or in parentheses, or a
// national number starting with 0 (never 00 followed by 0: that is a counter, not a dial prefix); then groups of
// digits separated by spaces, slashes, dots or dashes, and an optional extension ("-0").
const SEP = '(?:\\s?[/.-]\\s?|\\s)';
const PHONE = `(?<![\\w+/-]|\\d\\.)(?:(?:\\+|\\b00)[1-9]\\d{0,2}${SEP}?(?:\\(0\\)\\s?)?(?:\\(\\d{1,5}\\)|\\d{1,5})|\\(0[1-9]\\d{0,4}\\)|\\b0\\s?[1-9]\\d{0,4})(?:${SEP}?\\d{2,}){1,4}(?:-\\d{1,5})?\\b`;

/** Patterns in the order they are applied: the most specific first, so an IBAN is never half-eaten as a phone number. */
const RULES: Array<{
  kind: PiiKind;
  re: RegExp;
  check?: (m: string, before: string) => boolean;
  /** The part of the match to replace, the rest stays (an IBAN followed by a short word). */
  take?: (m: string) => string;
}> = [
  { kind: 'email', re: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu },
  // written in lower case too ("de89 3704 …"): otherwise its digits would be half-eaten as a phone number
  { kind: 'iban', re: /\b[A-Za-z]{2}\d{2}(?:[ ]?[A-Za-z0-9]{4}){2,7}(?:[ ]?[A-Za-z0-9]{1,4})?\b/g, take: ibanPrefix },
  { kind: 'card', re: /(?<![+\d]|\d[ -])\b\d(?:[ -]?\d){11,18}\b(?![ -]?\d)/g, check: cardNumber },
  { kind: 'birthdate', re: new RegExp(`(?:${BIRTH_CUE})[:\\s]*(?:(?:am|on)\\s+)?(?:${DATE})`, 'giu') },
  {
    kind: 'ip',
    re: /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b(?!\/\d)/g,
    check: (_m, before) => !VERSION_LABEL.test(before),
  },
  {
    kind: 'ip',
    re: /(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){2,7}(?::|[0-9A-Fa-f]{1,4})(?![\w:])|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?(?![\w:])|(?<![\w:])::(?:[0-9A-Fa-f]{1,4}:){0,6}[0-9A-Fa-f]{1,4}(?![\w:])/g,
    check: (m) => m.includes('::') || m.split(':').length === 8,
  },
  { kind: 'address', re: new RegExp(ADDRESS, 'gu') },
  {
    kind: 'phone',
    re: new RegExp(PHONE, 'g'),
    check: (m, before) => {
      const n = m.replace(/\D/g, '').length;
      const date = /^\d{1,2}([./])\d{1,2}\1\d{2,4}$/.test(m);
      return n >= 7 && n <= 15 && !date && (!ID_LABEL.test(before) || PHONE_LABEL.test(before));
    },
  },
];

const PARTICLES = new Set([
  'von',
  'van',
  'vom',
  'zu',
  'zum',
  'zur',
  'de',
  'der',
  'den',
  'du',
  'da',
  'di',
  'del',
  'della',
  'la',
  'le',
  'ten',
  'ter',
]);

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
    text = text.replace(rule.re, (m: string, ...rest: unknown[]) => {
      const offset = rest.find((r) => typeof r === 'number')!;
      const before = text.slice(Math.max(0, offset - 40), offset);
      if (rule.check && !rule.check(m, before)) return m;
      const value = rule.take ? rule.take(m) : m;
      return value ? placeholder(rule.kind, value) + m.slice(value.length) : m;
    });
  }
  // a name is its words: "Erika  Schmidt" in the store is "Erika Schmidt", and a line break may fall between them
  const people = [...new Set(names.map((n) => n.trim().split(/\s+/).join(' ')).filter((n) => n.length >= 3))];
  if (people.length) {
    // full names first ("Erika Mustermann", also as "Mustermann, Erika"), then surnames of at least four letters, so
    // "Erika Mustermann" stays one person; a genitive s ("Mustermanns Antrag") does not hide the name
    const personOf = new Map<string, string>();
    const alternatives: string[] = [];
    const words = (parts: string[]) => parts.map(escapeRe).join('\\s+');
    const add = (written: string, person: string, pattern: string) => {
      const key = written.toLowerCase();
      if (personOf.has(key)) return;
      personOf.set(key, person);
      alternatives.push(pattern);
    };
    for (const n of people) add(n, n, words(n.split(' ')));
    for (const n of people) {
      const parts = n.split(' ');
      const last = parts.at(-1)!;
      const first = parts.slice(0, -1);
      if (first.length) add(`${last}, ${first.join(' ')}`, n, `${escapeRe(last)},\\s*${words(first)}`);
      if (last.length >= 4) add(last, n, escapeRe(last));
      // "Ursula von der Leyen" is "Frau von der Leyen"
      const particle = parts.findIndex((p, i) => i > 0 && i < parts.length - 1 && PARTICLES.has(p.toLowerCase()));
      if (particle > 0) add(parts.slice(particle).join(' '), n, words(parts.slice(particle)));
    }
    alternatives.sort((a, b) => b.length - a.length);
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?=s?(?![\\p{L}\\p{N}]))`, 'giu');
    const who = (m: string) => {
      const key = m.toLowerCase().replace(/\s+/g, ' ').replace(/,\s*/, ', ');
      return personOf.get(key) ?? m;
    };
    text = text.replace(re, (m) => placeholder('person', who(m)));
  }
  return { text, counts: { ...seq }, mapping };
}

/** Puts the original values back into a text that carries the placeholders. */
export function restore(text: string, mapping: Map<string, string>): string {
  return text.replace(/\[(?:EMAIL|PHONE|IBAN|CARD|IP|BIRTHDATE|ADDRESS|PERSON)_\d+\]/g, (p) => mapping.get(p) ?? p);
}
