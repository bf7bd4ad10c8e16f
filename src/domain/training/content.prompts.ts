import * as z from 'zod';
import { QuestionInput } from './training.schema.js';

export interface ModuleBrief {
  module_code: string;
  title: string;
  description: string;
  regulation_area: string;
  duration_minutes: number;
}

const AREA: Record<string, string> = {
  dsgvo: 'DSGVO (EU-Datenschutz-Grundverordnung)',
  nis2: 'NIS2-Richtlinie',
  iso27001: 'ISO/IEC 27001:2022',
  ai_act: 'EU-KI-Verordnung (AI Act)',
  geschgehg: 'Geschäftsgeheimnisgesetz (GeschGehG)',
  hinschg: 'Hinweisgeberschutzgesetz (HinSchG)',
};

/** The prompt for learning content in Markdown: goals, sections, examples, summary. */
export function contentPrompt(m: ModuleBrief, language: 'de' | 'en'): { system: string; prompt: string } {
  const de = language === 'de';
  return {
    system: de
      ? 'Du schreibst sachlich korrekte, praxisnahe Schulungsunterlagen für Beschäftigten-Schulungen in deutschen Unternehmen. Antworte nur mit Markdown.'
      : 'You write accurate, practical compliance training material for employees of European companies. Answer in Markdown only.',
    prompt: [
      de
        ? `Erstelle den Lerninhalt für das Schulungsmodul "${m.title}" (${m.module_code}).`
        : `Write the learning content for the training module "${m.title}" (${m.module_code}).`,
      `${de ? 'Rechtsgebiet' : 'Regulation'}: ${AREA[m.regulation_area] ?? m.regulation_area}.`,
      m.description ? `${de ? 'Beschreibung' : 'Description'}: ${m.description}` : '',
      de
        ? `Umfang: passend für etwa ${m.duration_minutes} Minuten Lernzeit.`
        : `Length: about ${m.duration_minutes} minutes of learning.`,
      de
        ? 'Gliederung: "# Titel", "## Lernziele" (3–5 Punkte), mehrere "## Abschnitte" mit Erklärungen und je einem "**Beispiel:**" aus dem Arbeitsalltag, "## Zusammenfassung" mit den wichtigsten Regeln als Liste. Keine erfundenen Paragrafen.'
        : 'Structure: "# Title", "## Learning goals" (3–5 bullets), several "## sections" with explanations and one "**Example:**" from everyday work each, "## Summary" with the key rules as a list. Do not invent legal provisions.',
    ]
      .filter(Boolean)
      .join('\n'),
  };
}

/** The prompt for quiz questions as JSON. */
export function quizPrompt(
  m: ModuleBrief,
  count: number,
  language: 'de' | 'en',
  content?: string,
): { system: string; prompt: string } {
  const de = language === 'de';
  return {
    system: de
      ? 'Du erstellst Prüfungsfragen für Compliance-Schulungen. Antworte ausschließlich mit JSON.'
      : 'You write quiz questions for compliance training. Answer with JSON only.',
    prompt: [
      de
        ? `Erstelle ${count} Multiple-Choice-Fragen zum Modul "${m.title}" (${AREA[m.regulation_area] ?? m.regulation_area}).`
        : `Write ${count} multiple-choice questions for the module "${m.title}" (${AREA[m.regulation_area] ?? m.regulation_area}).`,
      content
        ? `${de ? 'Grundlage ist dieser Inhalt' : 'Base them on this content'}:\n${content.slice(0, 6000)}`
        : m.description,
      'Format: {"questions": [{"question": "...", "options": ["...", "...", "...", "..."], "correct_index": 0, "explanation": "..."}]}',
      de
        ? 'Genau eine Antwort ist richtig; correct_index zählt ab 0; verteile die richtige Position.'
        : 'Exactly one answer is right; correct_index counts from 0; vary its position.',
    ].join('\n'),
  };
}

const QuizReply = z.union([
  z.object({ questions: z.array(QuestionInput) }),
  z.array(QuestionInput).transform((questions) => ({ questions })),
]);

/** Parses a model's quiz reply; returns the questions, or the problems to tell the model when retrying. */
export function parseQuiz(
  text: string,
  count: number,
): { ok: true; questions: z.infer<typeof QuestionInput>[] } | { ok: false; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch (e) {
    return { ok: false, problems: [`not valid JSON: ${(e as Error).message}`] };
  }
  const r = QuizReply.safeParse(json);
  if (!r.success)
    return { ok: false, problems: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) };
  if (r.data.questions.length < count)
    return { ok: false, problems: [`expected ${count} questions, got ${r.data.questions.length}`] };
  return { ok: true, questions: r.data.questions.slice(0, count) };
}
