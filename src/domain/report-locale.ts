/** The languages a report can be written in. */
export const REPORT_LANGUAGES = ['de', 'en'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

// Short function words that are frequent in running text and rare in the other language.
const GERMAN_WORDS = new Set(
  (
    'der die das den dem des und oder ist sind wird werden nicht mit für von zu zur zum auf bei ein eine einer eines ' +
    'im auch nach über durch wie sowie als dass wir sie es aus vor'
  ).split(' '),
);
const ENGLISH_WORDS = new Set(
  'the and or is are be been not with for of to on at by as from this that which it its into over'.split(' '),
);

/**
 * The language a text is most likely written in: German when its German signals outnumber its English ones, else
 * English. A signal is a common function word of either language, and for German also a word with ä, ö, ü or ß. A
 * title alone such as "Videoüberwachung Lager" reads as German; a text without any signal reads as English.
 */
export function guessLanguage(text: string): ReportLanguage {
  let de = 0;
  let en = 0;
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (GERMAN_WORDS.has(word) || /[äöüß]/.test(word)) de++;
    else if (ENGLISH_WORDS.has(word)) en++;
  }
  return de > en ? 'de' : 'en';
}

const LOCALE: Record<ReportLanguage, string> = { de: 'de-DE', en: 'en-GB' };

/**
 * A point in time for people, in the report's language and a time zone, with the zone named: `25.11.2026, 14:30 MEZ`
 * in German, `25 Nov 2026, 14:30 CET` in English. DSFA timestamps carry no zone and are UTC (decisions.md).
 */
export function formatDateTime(timestamp: string | Date, lang: ReportLanguage, timeZone: string): string {
  const at =
    typeof timestamp === 'string'
      ? new Date(/[zZ]|[+-]\d\d:\d\d$/.test(timestamp) ? timestamp : `${timestamp}Z`)
      : timestamp;
  return new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone,
    day: lang === 'de' ? '2-digit' : 'numeric',
    month: lang === 'de' ? '2-digit' : 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(at);
}

/** A calendar day (`YYYY-MM-DD`, no time, no zone) for people: `20.11.2026` or `20 Nov 2026`. */
export function formatDate(day: string, lang: ReportLanguage): string {
  return new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone: 'UTC',
    day: lang === 'de' ? '2-digit' : 'numeric',
    month: lang === 'de' ? '2-digit' : 'short',
    year: 'numeric',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** The locale of a report language, for Intl. */
export const localeOf = (lang: ReportLanguage): string => LOCALE[lang];

/** A number in the report's language: `1.234,5` in German, `1,234.5` in English; at most `digits` decimals. */
export function formatNumber(n: number, lang: ReportLanguage, digits = 1): string {
  return numberFormat(lang, 'decimal', digits).format(n);
}

// a chart formats hundreds of numbers, and making a formatter costs far more than using one
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: ReportLanguage, style: 'decimal' | 'percent', digits: number): Intl.NumberFormat {
  const key = `${lang} ${style} ${digits}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(LOCALE[lang], { style, maximumFractionDigits: digits })));
  return f;
}

/** A percentage of 0 to 100 in the report's language: `87,5 %` in German, `87.5%` in English. */
export function formatPercent(n: number, lang: ReportLanguage): string {
  return numberFormat(lang, 'percent', 1).format(n / 100);
}

/**
 * A month (`YYYY-MM`) in the report's language: `Sept. 2026` in German, `Sept 2026` in English; `short` gives a
 * two-digit year (`Sept. 26`) for the axis of a chart.
 */
export function formatMonth(month: string, lang: ReportLanguage, short = false): string {
  return new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone: 'UTC',
    month: 'short',
    year: short ? '2-digit' : 'numeric',
  }).format(new Date(`${month}-01T00:00:00Z`));
}
