import { readFile } from 'node:fs/promises';
import { DomainError } from '../../domain/errors.js';
import { CanonicalControl } from '../../domain/training-blocks/canonical.schema.js';
import { fixturePath } from './package-files.js';

let builtin: Promise<CanonicalControl[]> | undefined;

/** The catalogue shipped in fixtures/training/canonical-controls.json, validated once per process. */
export function builtinControls(): Promise<CanonicalControl[]> {
  builtin ??= (async () => {
    const file = fixturePath('training', 'canonical-controls.json');
    const parsed = CanonicalControl.array().safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success)
      throw new DomainError('internal', `the shipped control catalogue ${file} is invalid: ${parsed.error.message}`);
    return parsed.data;
  })();
  return builtin;
}
