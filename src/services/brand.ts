import i18next from 'i18next';
import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { LANGUAGES } from '../schemas/constants.js';
import { apiRequest } from './api-client.js';

/** `GET /api/brand/`: the installation's product name (server env BRAND_NAME). */
const BrandSchema = z.object({ name: z.string().min(1) });

/**
 * Replaces the `brand` string ('Regulars') in every language with the server's BRAND_NAME, then re-renders
 * the app's translations so titles '{page} | {brand}' follow. An unreachable server keeps the default:
 * the pages themselves report the outage.
 */
export async function applyServerBrand(): Promise<void> {
  try {
    const { name } = await firstValueFrom(
      apiRequest({ method: 'GET', path: '/brand/', schema: BrandSchema }),
    );
    for (const language of LANGUAGES) i18next.addResource(language, 'translation', 'brand', name);
    // Same language again: every translated view and the title re-render with the new brand.
    await i18next.changeLanguage(i18next.language);
  } catch {
    // Keep the default brand.
  }
}
