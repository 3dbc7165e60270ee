import type { TFunction } from 'i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';

/**
 * A failed call in the interface language: the area's text for the server's error code (`<area>.errors.*`),
 * else the text every area shares for it (`errors.api.*`, codes any screen can meet, such as `demo_loading`),
 * else the server's own message, else the area's generic one. Null when nothing failed.
 */
export function problemMessage(t: TFunction, area: string, problem: ApiProblem | null): string | null {
  if (!problem) return null;
  // Without an answer (offline) the server said nothing worth showing.
  if (problem.status === null || problem.status === 0) return t(`${area}.errors.unreachable`);
  return t([`${area}.errors.${problem.code}`, `errors.api.${problem.code}`], {
    defaultValue: problem.message || t(`${area}.errors.unexpected`),
  });
}

/** True when the problem is told next to its fields rather than above the form. */
export function hasFieldMessages(problem: ApiProblem | null): boolean {
  return problem !== null && Object.keys(problem.fields).length > 0;
}
