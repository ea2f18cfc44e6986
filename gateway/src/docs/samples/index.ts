import { CURL } from './curl';
import { GO } from './go';
import type { SampleLanguage } from './language';
import type { SampleOperation } from './operations';
import { PYTHON } from './python';
import { TYPESCRIPT } from './typescript';

/** Every sample language, in the order the page shows them. */
export const SAMPLE_LANGUAGES: readonly SampleLanguage[] = [CURL, TYPESCRIPT, PYTHON, GO];

/** The operation's samples, one per language. */
export function samplesOf(op: SampleOperation): { language: SampleLanguage; code: string }[] {
  return SAMPLE_LANGUAGES.map((language) => ({ language, code: language.render(op) }));
}
