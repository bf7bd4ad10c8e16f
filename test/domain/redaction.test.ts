import { describe, expect, it } from 'vitest';
import { cardNumber, ibanValid, luhn, redact, restore } from '../../src/domain/training/redaction.js';

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

  // The speed is measured by `npm run bench` (target 200 ms), not here: a timed bound fails on a busy machine. A pattern
  // that backtracks badly would take minutes on 1 MB, which the test's time limit still catches.
  it('redacts 1 MB of text without a pattern backtracking badly', () => {
    const chunk =
      'Kontakt: anna.schmidt@example.com, Tel. +49 89 12345678, IBAN DE89 3704 0044 0532 0130 00, Musterweg 5, 80331 München. Text ohne Daten folgt hier. ';
    const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
    const r = redact(text, ['Anna Schmidt']);
    expect(r.counts.email).toBe(1);
    expect(r.text).not.toMatch(/anna\.schmidt|DE89|12345678|Musterweg/);
  }, 30_000);
});

// Guards for the rules a mutation run found unguarded (issue 14): each case fails when one step of a rule is broken.
describe('redaction rules', () => {
  it('doubles every second digit from the right in the Luhn check, subtracting 9 above 9', () => {
    // 4242…: the doubled 2s give 4, the undoubled 4s stay; 5 doubled is 10 → 1, so 59 is valid and 95 is not
    expect(luhn('4242424242424242')).toBe(true);
    expect(luhn('59')).toBe(true);
    expect(luhn('95')).toBe(false);
    expect(luhn('18')).toBe(true); // 1 doubled is 2, plus 8
    expect(luhn('81')).toBe(false);
    expect(luhn('0')).toBe(true);
    expect(luhn('79927398713')).toBe(true);
    expect(luhn('79927398710')).toBe(false);
  });

  it('recognises card numbers by brand, grouping and Luhn', () => {
    expect(cardNumber('4111 1111 1111 1111')).toBe(true);
    expect(cardNumber('4111-1111-1111-1111')).toBe(true);
    expect(cardNumber('378282246310005')).toBe(true); // Amex, 15 digits
    expect(cardNumber('3782 822463 10005')).toBe(true);
    expect(cardNumber('30569309025904')).toBe(true); // Diners, 14 digits
    expect(cardNumber('2221000000000009')).toBe(true); // Mastercard 2-series
    expect(cardNumber('4111 1111 1111 1112')).toBe(false); // Luhn
    expect(cardNumber('4 111 111 111 111 111')).toBe(false); // a grouping no card uses
    expect(cardNumber('4222222222222')).toBe(false); // Visa stopped issuing 13 digits; an EAN looks like this
    expect(cardNumber('1234567812345670')).toBe(false); // Luhn-valid, no brand starts with 1
    expect(cardNumber('378282246310005'.slice(0, 14))).toBe(false);
  });

  it.each([
    ['IBAN NL91ABNA0417164300 bitte', 'IBAN [IBAN_1] bitte'], // letters including A, no spaces
    ['IBAN NL91 ABNA 0417 1643 00 bitte', 'IBAN [IBAN_1] bitte'],
    ['IBAN DE89370400440532013000 bitte', 'IBAN [IBAN_1] bitte'], // no spaces
    ['IBAN GB29 NWBK 6016 1331 9268 19 bitte', 'IBAN [IBAN_1] bitte'],
    ['IBAN CH93 0076 2011 6238 5295 7 bitte', 'IBAN [IBAN_1] bitte'], // odd last group
    ['IBAN AT61 1904 3002 3457 3201 bitte', 'IBAN [IBAN_1] bitte'],
    ['IBAN de89 3704 0044 0532 0130 00 bitte', 'IBAN [IBAN_1] bitte'], // lower case, not half a phone number
  ])('redacts IBAN in %s', (input, expected) => {
    expect(redact(input).text).toBe(expected);
  });

  it('checks IBANs letter by letter (A is 10, Z is 35) and case-blind', () => {
    expect(ibanValid('NL91ABNA0417164300')).toBe(true);
    expect(ibanValid('nl91 abna 0417 1643 00')).toBe(true);
    expect(ibanValid('NL91ABNB0417164300')).toBe(false);
    expect(ibanValid('GB29NWBK60161331926819')).toBe(true);
    expect(ibanValid('GB29NWBK6016133192681')).toBe(false);
    expect(ibanValid('DE8937040044053201300')).toBe(false); // too short for the check to mean anything
  });

  it.each([
    ['geboren am 12. März 1985', '[BIRTHDATE_1]'],
    ['Geboren am 12. MÄRZ 1985', '[BIRTHDATE_1]'],
    ['GEBOREN AM 12. märz 1985', '[BIRTHDATE_1]'],
    ['geb. 1. Januar 1990', '[BIRTHDATE_1]'],
    ['geb. am 3. 7. 1978', '[BIRTHDATE_1]'],
    ['Geburtsdatum: 19. Jänner 1982', '[BIRTHDATE_1]'],
    ['geboren 12.3.85 in Ulm', '[BIRTHDATE_1] in Ulm'],
    ['born on March 12, 1985', '[BIRTHDATE_1]'],
    ['DOB 1st March 1980', '[BIRTHDATE_1]'],
    ['Max Muster, * 29.02.1996', 'Max Muster, [BIRTHDATE_1]'],
  ])('redacts the birth date in %s', (input, expected) => {
    expect(redact(input).text).toBe(expected);
  });

  it.each(['Rechnung vom 12. März 1985', 'fällig am 15.03.2025', 'Geburtstagsfeier am 12.03.2025'])(
    'leaves the date in %s',
    (input) => {
      expect(redact(input).text).toBe(input);
    },
  );

  it('redacts phone numbers of 7 to 15 digits and nothing shorter or longer', () => {
    expect(redact('Tel. 0301 23').text).toBe('Tel. 0301 23'); // 6 digits
    expect(redact('Tel. 0301 234').text).toBe('Tel. [PHONE_1]'); // 7 digits
    expect(redact('Tel. +49 30 123 456 789 12').text).toBe('Tel. [PHONE_1]'); // 15 digits
    expect(redact('Tel. +49 30 123 456 789 123').text).toBe('Tel. +49 30 123 456 789 123'); // 16 digits
  });

  it.each([
    ['(030) 1234567', '[PHONE_1]'],
    ['+49 (0)30 1234567', '[PHONE_1]'],
    ['+1 (212) 555-0147', '[PHONE_1]'],
    ['089 / 12 34 56 78', '[PHONE_1]'],
    ['+43 1 5123456', '[PHONE_1]'],
    ['01/512 34 56', '[PHONE_1]'],
    ['+41 44 123 45 67', '[PHONE_1]'],
    ['+49 30 12345-0', '[PHONE_1]'],
    ['Telefonnummer 030 1234567', 'Telefonnummer [PHONE_1]'],
    ['Tel.030 1234567', 'Tel.[PHONE_1]'],
    ['Tel.-Nr. 0172 1234567', 'Tel.-Nr. [PHONE_1]'],
    ['0171 12.03.85', '[PHONE_1]'], // ends like a date, but is none as a whole
    ['01.23.45678', '[PHONE_1]'], // starts like a date
  ])('redacts the phone number %s', (input, expected) => {
    expect(redact(input).text).toBe(expected);
  });

  it.each([
    'Kundennummer 0301234567',
    'GTIN 04012345678901',
    'Zählerstand 000123456',
    'Bestellnummer 4711-0815-2231',
    'Invoice date: 03/12/2024',
    'Zeitraum 01.01.2024 bis 31.12.2024',
    'Version 1.0.0.1 und Abschnitt 3.2.1.4',
    'Netz 10.0.0.0/8',
    'Budget 4 111 111 111 111 111 units',
  ])('leaves %s alone', (input) => {
    expect(redact(input).text).toBe(input);
  });

  it.each([
    ['Am Markt 1, 28195 Bremen', '[ADDRESS_1]'],
    ['Unter den Linden 77, 10117 Berlin', '[ADDRESS_1]'],
    ['Karl-Marx-Allee 90, 10243 Berlin', '[ADDRESS_1]'],
    ['Mariahilfer Straße 45, 1060 Wien', '[ADDRESS_1]'],
    ['Bahnhofstrasse 10, CH-8001 Zürich', '[ADDRESS_1]'],
    ['Berliner Straße 3, 60311 Frankfurt am Main.', '[ADDRESS_1].'],
    ['Rue du Rhône 42, 1204 Genève', '[ADDRESS_1]'],
  ])('redacts the address %s', (input, expected) => {
    expect(redact(input).text).toBe(expected);
  });

  it('finds people written surname first, with a genitive s, or with a particle', () => {
    const names = ['Erika Schmidt', 'Ursula von der Leyen'];
    expect(redact('Schmidt, Erika und Schmidts Antrag', names).text).toBe('[PERSON_1] und [PERSON_1]s Antrag');
    const r = redact('Frau von der Leyen', names);
    expect(r.text).toBe('Frau [PERSON_1]');
    expect(restore(r.text, r.mapping)).toBe('Frau Ursula von der Leyen');
  });

  it('redacts IPv6 written with a leading ::', () => {
    expect(redact('von ::ffff:c000:280 aus').text).toBe('von [IP_1] aus');
    expect(redact('std::vector bleibt').text).toBe('std::vector bleibt');
  });
});

describe('redaction of an IBAN followed by a short word', () => {
  it('replaces the IBAN and keeps the word', () => {
    expect(redact('IBAN at61 1904 3002 3457 3201 den Betrag').text).toBe('IBAN [IBAN_1] den Betrag');
    expect(redact('IBAN AT611904300234573201 den Betrag').text).toBe('IBAN [IBAN_1] den Betrag');
    expect(redact('IBAN AT61 1904 3002 3457 3202 den Betrag').text).toBe('IBAN AT61 1904 3002 3457 3202 den Betrag');
  });
});

describe('card numbers by brand', () => {
  it.each([
    ['4111111111111111110', true], // Visa, 19 digits
    ['411111111111116', false], // Visa, 15 digits
    ['41111111111111111115', false], // Visa, 20 digits
    ['5555555555554444', true], // Mastercard 51–55
    ['55555555555544440', false], // Mastercard, 17 digits
    ['340000000000009', true], // Amex 34
    ['3714496353984314', false], // Amex, 16 digits
    ['36227206271667', true], // Diners 36
    ['38000000000006', true], // Diners 38
    ['39000000000005', true], // Diners 39
    ['3530111333300000', true], // JCB
    ['6011111111111117', true], // Discover
    ['6200000000000005', true], // UnionPay
    ['500000000009', true], // Maestro, 12 digits
    ['50000000005', false], // Maestro, 11 digits
    ['5600000000000003', true], // Maestro 56
  ])('%s is a card: %s', (digits, card) => {
    expect(cardNumber(digits)).toBe(card);
  });

  // Luhn-valid numbers of a brand's length, with its prefix inside instead of at the start: article numbers
  it.each([
    '1400000000000004',
    '1510000000000001',
    '134000000000009',
    '13000000000005',
    '1350000000000004',
    '1600000000000002',
  ])('%s, whose brand digits stand inside, is no card', (digits) => {
    expect(cardNumber(digits)).toBe(false);
  });

  it('accepts a last group of three digits, but no group shorter', () => {
    expect(cardNumber('4111 1111 1111 1111 110')).toBe(true);
    expect(cardNumber('4111 1111 1111 1111 11 0')).toBe(false);
  });
});

describe('IBAN lengths', () => {
  it('accepts IBANs of 15 to 34 characters and nothing shorter or longer, check digits right or not', () => {
    expect(ibanValid('NO9386011117947')).toBe(true); // Norway, the shortest
    expect(ibanValid('NO698601111794')).toBe(false); // 14, check digits right
    expect(ibanValid(`LC80ABCD${'0'.repeat(26)}`)).toBe(true); // 34
    expect(ibanValid(`LC03ABCD${'0'.repeat(27)}`)).toBe(false); // 35, check digits right
  });

  it('redacts the shortest IBAN in a text', () => {
    expect(redact('Konto NO93 8601 1117 947 in Oslo').text).toBe('Konto [IBAN_1] in Oslo');
  });

  it('gives an IBAN written with and without spaces one placeholder', () => {
    const r = redact('DE89 3704 0044 0532 0130 00 oder DE89370400440532013000');
    expect(r.text).toBe('[IBAN_1] oder [IBAN_1]');
    expect(r.counts).toEqual({ iban: 1 });
  });

  it('keeps e-mail addresses that differ in case apart', () => {
    expect(redact('Anna@Firma.de und anna@firma.de').text).toBe('[EMAIL_1] und [EMAIL_2]');
  });
});

describe('people known to the store', () => {
  it('needs three letters for a name and four for a surname on its own', () => {
    expect(redact('Ana kommt, Li nicht', ['Ana', 'Li']).text).toBe('[PERSON_1] kommt, Li nicht');
    expect(redact('Frau Vogt und Herr Ott', ['Anna Vogt', 'Max Ott']).text).toBe('Frau [PERSON_1] und Herr Ott');
  });

  it('takes nothing after a one-word name but the name', () => {
    expect(redact('Mustermann, bitte melden', ['Mustermann']).text).toBe('[PERSON_1], bitte melden');
  });

  it('tells two people with the same surname apart when written surname first', () => {
    const r = redact('Schmidt, Hans und Schmidt, Erika', ['Erika Schmidt', 'Hans Schmidt']);
    expect(r.text).toBe('[PERSON_1] und [PERSON_2]');
    expect(restore(r.text, r.mapping)).toBe('Hans Schmidt und Erika Schmidt');
  });

  it.each([
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
  ])('takes "%s" for the particle of a surname', (particle) => {
    const r = redact(`Frau ${particle} Kranz kommt`, [`Anna ${particle} Kranz`]);
    expect(r.text).toBe('Frau [PERSON_1] kommt');
    expect(restore(r.text, r.mapping)).toBe(`Frau Anna ${particle} Kranz kommt`);
  });

  it('takes a particle only between first name and surname, never a short word on its own', () => {
    // "Le" is the whole surname of Thi Le, too short to stand alone, and a French article
    expect(redact('Le Monde schreibt über le football', ['Thi Le']).text).toBe('Le Monde schreibt über le football');
    // Del is a first name here; "van Dyke" is the surname with its particle
    expect(redact('Herr van Dyke kommt', ['Del van Dyke']).text).toBe('Herr [PERSON_1] kommt');
  });

  it('gives a surname two people share to the one listed first', () => {
    const r = redact('Frau Schmidt kommt', ['Erika Schmidt', 'Hans Schmidt']);
    expect(restore(r.text, r.mapping)).toBe('Frau Erika Schmidt kommt');
    const other = redact('Frau Schmidt kommt', ['Hans Schmidt', 'Erika Schmidt']);
    expect(restore(other.text, other.mapping)).toBe('Frau Hans Schmidt kommt');
  });

  it('reads a name as its words, whatever the spaces around and between them in the store or the text', () => {
    const names = ['  Erika   Schmidt ', 'Dr. Anna (Maria) Berg'];
    const r = redact('Frau Erika Schmidt, Erika\nSchmidt und ERIKA  SCHMIDT; Dr. Anna (Maria) Berg', names);
    expect(r.text).toBe('Frau [PERSON_1], [PERSON_1] und [PERSON_1]; [PERSON_2]');
    expect(r.counts).toEqual({ person: 2 });
    expect(restore(r.text, r.mapping)).toBe(
      'Frau Erika Schmidt, Erika Schmidt und Erika Schmidt; Dr. Anna (Maria) Berg',
    );
  });

  it('finds a person written surname first however the comma and spaces are set', () => {
    const r = redact('Anna Maria Schmidt; Schmidt,Anna Maria; Schmidt,\n Anna  Maria', ['Anna Maria Schmidt']);
    expect(r.text).toBe('[PERSON_1]; [PERSON_1]; [PERSON_1]');
    expect(r.counts).toEqual({ person: 1 });
  });
});

describe('restore', () => {
  it('puts back placeholders of two digits and leaves unknown ones', () => {
    const emails = Array.from({ length: 12 }, (_, i) => `p${i}@x.de`);
    const r = redact(emails.join(' '));
    expect(r.text.endsWith('[EMAIL_12]')).toBe(true);
    expect(restore(r.text, r.mapping)).toBe(emails.join(' '));
    expect(restore('[EMAIL_13] [PHONE_1]', r.mapping)).toBe('[EMAIL_13] [PHONE_1]');
  });
});

describe('shapes of e-mail addresses', () => {
  it.each([
    'max_muster@firma.de',
    'max%muster@firma.de',
    'max+news@firma.de',
    'max-muster@firma.de',
    'max2@firma.de',
    'max@mein-shop.de',
    'max@web2.de',
    'max@mail.firma.co.uk',
  ])('redacts %s whole', (email) => {
    expect(redact(`an ${email} schreiben`).text).toBe('an [EMAIL_1] schreiben');
  });
});

describe('labels before a number', () => {
  it.each([
    ['Kundennummer: 0301234567', 'Kundennummer: 0301234567'],
    ['Kunden-ID 0301234567', 'Kunden-ID 0301234567'],
    ['Kundennummer 4711, Tel. 030 1234567', 'Kundennummer 4711, Tel. [PHONE_1]'],
    ['Telnr. 0172 1234567', 'Telnr. [PHONE_1]'],
    ['Telefon-Nr 030 1234567', 'Telefon-Nr [PHONE_1]'],
    ['Phone no 030 1234567', 'Phone no [PHONE_1]'],
    ['Telefonnummer: 030 1234567', 'Telefonnummer: [PHONE_1]'],
    ['Kundennr 0301234567', 'Kundennr 0301234567'],
    ['Order no 0301234567', 'Order no 0301234567'],
    ['Az 0301234567', 'Az 0301234567'],
    ['Telefonnummer 030 1234567, Kundennummer 0301234567', 'Telefonnummer [PHONE_1], Kundennummer 0301234567'],
    ['gemäß §3.2.1.4', 'gemäß §3.2.1.4'],
    ['Server aus Version 2 unter 10.1.2.3 erreichbar', 'Server aus Version 2 unter [IP_1] erreichbar'],
  ])('%s', (input, expected) => {
    expect(redact(input).text).toBe(expected);
  });
});

describe('numbers that only look like a card or an IBAN', () => {
  it('takes no card number out of a longer number', () => {
    // 20 digits in groups: the last 16 are a valid Visa number, but they are part of a reference
    expect(redact('Referenz 9999 4111 1111 1111 1111 bitte angeben').text).toBe(
      'Referenz 9999 4111 1111 1111 1111 bitte angeben',
    );
    expect(redact('Karte 4111 1111 1111 1111 bitte angeben').text).toBe('Karte [CARD_1] bitte angeben');
  });

  it('cuts an IBAN candidate back a group at a time, so an invoice number keeps its digits', () => {
    // cut one character at a time, RE24179562279116490 would pass the mod-97 check
    expect(redact('Rechnung RE241795622791164909 vom 3. März').text).toBe('Rechnung RE241795622791164909 vom 3. März');
  });
});
