import { NativeSelect } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../schemas/constants.js';
import type { AuthActor } from './types.js';

function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** The interface language picker: each choice sends `language.change`; the wiring applies and stores it. */
export function LanguagePicker({ actor, withLabel = false }: { actor: AuthActor; withLabel?: boolean }) {
  const { t } = useTranslation();
  const language = useSelector(actor, (state) => state.context.language);
  return (
    <NativeSelect
      size="xs"
      w={withLabel ? undefined : 112}
      label={withLabel ? t('shell.language.label') : undefined}
      aria-label={withLabel ? undefined : t('shell.language.label')}
      value={language}
      data={LANGUAGES.map((code) => ({ value: code, label: t(`shell.language.${code}`) }))}
      onChange={(event) => {
        const { value } = event.currentTarget;
        if (isLanguage(value)) actor.send({ type: 'language.change', language: value });
      }}
    />
  );
}
