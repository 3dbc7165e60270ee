import { defineArea } from '../catalog.js';

/** Words used across the whole app. */
export const common = defineArea({
  en: { brand: 'Regulars' },
  ch: { brand: 'Regulars' },
  es: { brand: 'Regulars' },
  jp: { brand: 'Regulars' },
  de: { brand: 'Regulars' },
  fr: { brand: 'Regulars' },
});
