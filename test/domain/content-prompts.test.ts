import { describe, expect, it } from 'vitest';
import { contentPrompt, parseQuiz, quizPrompt } from '../../src/domain/training/content.prompts.js';
import { GenerateAll, GenerateContent, GenerateQuiz } from '../../src/domain/training/content.schema.js';

const brief = {
  module_code: 'DS-1',
  title: 'Datenschutz im Alltag',
  description: 'Grundregeln',
  regulation_area: 'dsgvo',
  duration_minutes: 20,
};

describe('the prompt for learning content', () => {
  it('asks in German for a module of the given length, naming the regulation in full', () => {
    expect(contentPrompt(brief, 'de')).toEqual({
      system:
        'Du schreibst sachlich korrekte, praxisnahe Schulungsunterlagen für Beschäftigten-Schulungen in deutschen Unternehmen. Antworte nur mit Markdown.',
      prompt: [
        'Erstelle den Lerninhalt für das Schulungsmodul "Datenschutz im Alltag" (DS-1).',
        'Rechtsgebiet: DSGVO (EU-Datenschutz-Grundverordnung).',
        'Beschreibung: Grundregeln',
        'Umfang: passend für etwa 20 Minuten Lernzeit.',
        'Gliederung: "# Titel", "## Lernziele" (3–5 Punkte), mehrere "## Abschnitte" mit Erklärungen und je einem "**Beispiel:**" aus dem Arbeitsalltag, "## Zusammenfassung" mit den wichtigsten Regeln als Liste. Keine erfundenen Paragrafen.',
      ].join('\n'),
    });
  });

  it('asks in English, and leaves out an empty description', () => {
    expect(contentPrompt({ ...brief, regulation_area: 'nis2', description: '' }, 'en')).toEqual({
      system:
        'You write accurate, practical compliance training material for employees of European companies. Answer in Markdown only.',
      prompt: [
        'Write the learning content for the training module "Datenschutz im Alltag" (DS-1).',
        'Regulation: NIS2-Richtlinie.',
        'Length: about 20 minutes of learning.',
        'Structure: "# Title", "## Learning goals" (3–5 bullets), several "## sections" with explanations and one "**Example:**" from everyday work each, "## Summary" with the key rules as a list. Do not invent legal provisions.',
      ].join('\n'),
    });
  });

  it('labels the description in English', () => {
    expect(contentPrompt(brief, 'en').prompt).toContain('\nDescription: Grundregeln\n');
  });

  it.each([
    ['dsgvo', 'DSGVO (EU-Datenschutz-Grundverordnung)'],
    ['nis2', 'NIS2-Richtlinie'],
    ['iso27001', 'ISO/IEC 27001:2022'],
    ['ai_act', 'EU-KI-Verordnung (AI Act)'],
    ['geschgehg', 'Geschäftsgeheimnisgesetz (GeschGehG)'],
    ['hinschg', 'Hinweisgeberschutzgesetz (HinSchG)'],
    ['eigenes', 'eigenes'],
  ])('names the area %s as %s', (area, name) => {
    expect(contentPrompt({ ...brief, regulation_area: area }, 'de').prompt).toContain(`Rechtsgebiet: ${name}.\n`);
    expect(quizPrompt({ ...brief, regulation_area: area }, 3, 'en').prompt).toContain(
      `module "Datenschutz im Alltag" (${name}).`,
    );
  });
});

describe('the prompt for quiz questions', () => {
  const format =
    'Format: {"questions": [{"question": "...", "options": ["...", "...", "...", "..."], "correct_index": 0, "explanation": "..."}]}';

  it('asks in German for JSON, based on the description when there is no published content', () => {
    expect(quizPrompt(brief, 4, 'de')).toEqual({
      system: 'Du erstellst Prüfungsfragen für Compliance-Schulungen. Antworte ausschließlich mit JSON.',
      prompt: [
        'Erstelle 4 Multiple-Choice-Fragen zum Modul "Datenschutz im Alltag" (DSGVO (EU-Datenschutz-Grundverordnung)).',
        'Grundregeln',
        format,
        'Genau eine Antwort ist richtig; correct_index zählt ab 0; verteile die richtige Position.',
      ].join('\n'),
    });
  });

  it('asks in English, based on the first 6000 characters of the published content', () => {
    const content = `${'a'.repeat(5999)}bc`;
    expect(quizPrompt(brief, 2, 'en', content)).toEqual({
      system: 'You write quiz questions for compliance training. Answer with JSON only.',
      prompt: [
        'Write 2 multiple-choice questions for the module "Datenschutz im Alltag" (DSGVO (EU-Datenschutz-Grundverordnung)).',
        `Base them on this content:\n${'a'.repeat(5999)}b`,
        format,
        'Exactly one answer is right; correct_index counts from 0; vary its position.',
      ].join('\n'),
    });
    expect(quizPrompt(brief, 2, 'de', 'Inhalt').prompt).toContain('\nGrundlage ist dieser Inhalt:\nInhalt\n');
  });
});

describe("reading the model's quiz", () => {
  const q = (i: number) => ({ question: `Frage ${i}?`, options: ['a', 'b'], correct_index: i % 2, explanation: '' });
  const questions = [q(1), q(2), q(3)];

  it.each([
    ['an object', JSON.stringify({ questions })],
    ['a bare list', JSON.stringify(questions)],
    ['a fenced block', `\`\`\`json\n${JSON.stringify({ questions })}\n\`\`\``],
    ['a fence without a language', `  \`\`\`\n${JSON.stringify(questions)}\n\`\`\`  `],
  ])('takes the questions from %s', (_, text) => {
    expect(parseQuiz(text, 3)).toEqual({ ok: true, questions });
  });

  it('takes the questions from a fence written on one line', () => {
    // no line break after the opening fence nor before the closing one; the questions' texts have spaces
    expect(parseQuiz(`\`\`\`json${JSON.stringify({ questions })}\`\`\``, 3)).toEqual({ ok: true, questions });
    expect(parseQuiz(`\`\`\`${JSON.stringify(questions)}\`\`\``, 3)).toEqual({ ok: true, questions });
  });

  it('strips only the fence around the reply, not backticks inside a question', () => {
    const inner = [{ ...q(1), question: 'Was leitet ```json in Markdown ein?', explanation: 'Ein Block ```' }];
    expect(parseQuiz(`\`\`\`json\n${JSON.stringify({ questions: inner })}\n\`\`\``, 1)).toEqual({
      ok: true,
      questions: inner,
    });
  });

  it('keeps as many questions as were asked for', () => {
    expect(parseQuiz(JSON.stringify({ questions }), 2)).toEqual({ ok: true, questions: [q(1), q(2)] });
  });

  it('names what is wrong, to tell the model on the retry', () => {
    expect(parseQuiz(JSON.stringify({ questions }), 4)).toEqual({
      ok: false,
      problems: ['expected 4 questions, got 3'],
    });
    expect(parseQuiz('Hier: {', 1)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^not valid JSON: /)],
    });
    expect(parseQuiz('"nur Text"', 1)).toMatchObject({ ok: false, problems: [expect.stringMatching(/^\(root\): /)] });
    expect(parseQuiz(JSON.stringify({ questions: [{ ...q(1), correct_index: 2 }] }), 1)).toEqual({
      ok: false,
      problems: ['questions.0.correct_index: must point at one of the options'],
    });
  });
});

describe('generation requests', () => {
  it('default to German, five questions, two at a time, and a real run', () => {
    expect(GenerateContent.parse({ module_id: 'm' })).toEqual({ module_id: 'm', language: 'de' });
    expect(GenerateQuiz.parse({ module_id: 'm' })).toEqual({ module_id: 'm', count: 5, language: 'de' });
    expect(GenerateAll.parse({})).toEqual({ language: 'de', dry_run: false, concurrency: 2, count: 5 });
  });

  it.each([
    [GenerateQuiz, { module_id: 'm', count: 1 }, true],
    [GenerateQuiz, { module_id: 'm', count: 30 }, true],
    [GenerateQuiz, { module_id: 'm', count: 0 }, false],
    [GenerateQuiz, { module_id: 'm', count: 31 }, false],
    [GenerateQuiz, { module_id: '' }, false],
    [GenerateContent, { module_id: '' }, false],
    [GenerateContent, { module_id: 'm', language: 'fr' }, false],
    [GenerateContent, { module_id: 'm', language: 'en', model: 'llama3.1:8b' }, true],
    [GenerateContent, { module_id: 'm', model: ' ' }, false],
    [GenerateContent, { module_id: 'm', model: 'x'.repeat(201) }, false],
    [GenerateAll, { concurrency: 1, count: 1 }, true],
    [GenerateAll, { concurrency: 16, count: 30 }, true],
    [GenerateAll, { concurrency: 0 }, false],
    [GenerateAll, { concurrency: 17 }, false],
    [GenerateAll, { count: 0 }, false],
    [GenerateAll, { count: 31 }, false],
    [GenerateAll, { language: 'en', dry_run: true }, true],
  ] as const)('%#: %j is accepted: %s', (schema, body, ok) => {
    expect(schema.safeParse(body).success).toBe(ok);
  });
});
