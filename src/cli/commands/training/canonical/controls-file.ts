import { DomainError } from '../../../../domain/errors.js';
import type { CliContext } from '../../../context.js';
import { readText } from '../../../input.js';
import { parseCsv } from '../shared.js';

const REF_COLUMNS = ['iso27001', 'nis2', 'bsi', 'nist'] as const;

/** Reads controls from JSON (an array, or {controls: [...]}) or CSV (one row per control, references split by ; or |). */
export async function readControls(ctx: CliContext, file: string): Promise<{ controls: unknown[]; lines: number[] }> {
  const text = (await readText(ctx, file)).replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new DomainError('bad_request', `${file}: malformed JSON: ${(e as Error).message}`);
    }
    const controls = Array.isArray(json) ? json : (json as { controls?: unknown }).controls;
    if (!Array.isArray(controls))
      throw new DomainError('bad_request', `${file}: expected a JSON array of controls or {"controls": [...]}`);
    return { controls, lines: controls.map((_, i) => i + 1) };
  }
  const { fields, rows } = await parseCsv(text);
  const missing = ['id', 'title', 'objective', 'domain', 'category', 'severity', 'target_audience'].filter(
    (f) => !fields.includes(f),
  );
  if (missing.length)
    throw new DomainError(
      'bad_request',
      `${file}: missing column(s) ${missing.join(', ')}; found ${fields.join(', ') || 'none'}`,
    );
  const controls = rows.map(({ row }) => {
    const refs = Object.fromEntries(
      REF_COLUMNS.map((k) => [
        k,
        (row[k] ?? '')
          .split(/[;|]/)
          .map((x) => x.trim())
          .filter(Boolean),
      ]),
    );
    const { iso27001: _a, nis2: _b, bsi: _c, nist: _d, ...rest } = row;
    return { ...rest, references: refs };
  });
  return { controls, lines: rows.map((r) => r.line) };
}
