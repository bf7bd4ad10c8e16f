import { describe, expect, it } from 'vitest';
import { ibanValid, luhn, redact, restore } from '../../src/domain/training/redaction.js';

describe('redaction', () => {
  it.each([
    ['Schreiben Sie an jürgen.müller@beispiel.de bitte.', 'email', 'Schreiben Sie an [EMAIL_1] bitte.'],
    ['Rückruf unter +49 30 1234567 oder 030/1234567.', 'phone', 'Rückruf unter [PHONE_1] oder [PHONE_2].'],
    ['IBAN DE89 3704 0044 0532 0130 00 für die Erstattung', 'iban', 'IBAN [IBAN_1] für die Erstattung'],
    ['Karte 4111 1111 1111 1111 wurde belastet', 'card', 'Karte [CARD_1] wurde belastet'],
    ['Zugriff von 192.168.10.20 und 2001:db8::1 protokolliert', 'ip', 'Zugriff von [IP_1] und [IP_2] protokolliert'],
    ['Frau Schmidt, geboren am 12.03.1985, meldet', 'birthdate', 'Frau Schmidt, [BIRTHDATE_1], meldet'],
    ['Die Lieferung geht an Musterstraße 12, 10115 Berlin heute', 'address', 'Die Lieferung geht an [ADDRESS_1] heute'],
  ])('redacts %s', (input, kind, expected) => {
    const r = redact(input);
    expect(r.text).toBe(expected);
    expect(r.counts[kind as 'email']).toBeGreaterThan(0);
  });

  it.each([
    'Bestellnummer 4111 1111 1111 1112 (Luhn falsch) bleibt stehen',
    'Art. 33 DSGVO verlangt eine Meldung binnen 72 Stunden',
    'ISO/IEC 27001:2022 hat 93 Controls in Anhang A',
    'Die Frist endet am 31.12.2026.',
    'DE00 1234 5678 9012 3456 78 ist keine gültige IBAN',
  ])('leaves %s alone', (input) => {
    expect(redact(input).text).toBe(input);
  });

  it('replaces people known to the store, full names and surnames, with stable placeholders', () => {
    const r = redact(
      'Erika Mustermann hat die Schulung nicht beendet. Frau Mustermann wird erinnert, ebenso Max Meier. mustermann@x.de',
      ['Erika Mustermann', 'Max Meier'],
    );
    expect(r.text).toBe(
      '[PERSON_1] hat die Schulung nicht beendet. Frau [PERSON_1] wird erinnert, ebenso [PERSON_2]. [EMAIL_1]',
    );
    expect(r.counts).toEqual({ email: 1, person: 2 });
    expect(restore(r.text, r.mapping)).toContain('Frau Erika Mustermann wird erinnert');
  });

  it('gives the same value the same placeholder', () => {
    const r = redact('a@b.de, c@d.de, a@b.de');
    expect(r.text).toBe('[EMAIL_1], [EMAIL_2], [EMAIL_1]');
    expect(r.counts.email).toBe(2);
  });

  it('checks IBAN and Luhn', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
  });

  it('redacts 1 MB of text in well under a second', () => {
    const chunk =
      'Kontakt: anna.schmidt@example.com, Tel. +49 89 12345678, IBAN DE89 3704 0044 0532 0130 00, Musterweg 5, 80331 München. Text ohne Daten folgt hier. ';
    const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
    const t = performance.now();
    const r = redact(text, ['Anna Schmidt']);
    const ms = performance.now() - t;
    expect(r.counts.email).toBe(1);
    expect(ms).toBeLessThan(2000); // the benchmark target is 200 ms; this bound only catches a tenfold regression
  });
});

describe('compliance redact', () => {
  it('prints the redacted text on stdout and the counts on stderr', async () => {
    const { cli } = await import('../support/helpers.js');
    const r = await cli(['redact', '-', '--names', 'Erika Mustermann'], {
      stdin: 'Erika Mustermann, erika@example.com, Tel. 0171 2345678',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[PERSON_1], [EMAIL_1], Tel. [PHONE_1]');
    expect(r.stderr).toMatch(/redacted: email 1, phone 1, person 1/);
    const j = await cli(['redact', '-', '--json'], { stdin: 'a@b.de' });
    expect(JSON.parse(j.stdout)).toEqual({ text: '[EMAIL_1]', counts: { email: 1 } });
  });
});
