import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { messagesFor } from '../../src/i18n/resources.js';
import type { ApiProblem } from '../../src/machines/support/api-problem.js';
import { problemMessage } from '../../src/views/shared/problem-message.js';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'de',
    resources: { de: { translation: messagesFor('de') }, en: { translation: messagesFor('en') } },
  });
});

const problem = (code: string, message = 'The server’s own words'): ApiProblem => ({
  status: 400,
  code,
  message,
  fields: {},
});

describe('a failed call in the interface language', () => {
  it('takes the area’s text for the code first', () => {
    expect(problemMessage(i18n.t, 'account', problem('last_owner'))).toBe(
      'Ein Unternehmen braucht mindestens einen aktiven Inhaber.',
    );
  });

  it('takes the text every area shares for a code any screen can meet, here a demo still being added up', () => {
    const message = problemMessage(i18n.t, 'locations', { ...problem('demo_loading'), status: 503 });
    expect(message).toBe(
      'Die Demodaten werden noch zusammengerechnet. Versuchen Sie es in einer Minute erneut.',
    );
  });

  it('falls back to the server’s message for a code nobody translated', () => {
    expect(problemMessage(i18n.t, 'locations', problem('something_new'))).toBe('The server’s own words');
  });
});
