import { Observable } from 'rxjs';
import { EmailImageSchema, type EmailImage } from '../schemas/email-templates.js';
import { apiAuth, apiErrorOf, apiUrl } from './api-client.js';

/**
 * Sends an image for emails to `POST /api/campaigns/email-images/` as multipart form data (field `file`), with
 * the Bearer token and the 401 hook of every API call; answers the stored image (its public address) or
 * errors with an ApiRequestError. Unsubscribing aborts the request.
 */
export function uploadEmailImage(file: File): Observable<EmailImage> {
  return new Observable<EmailImage>((subscriber) => {
    const controller = new AbortController();
    const form = new FormData();
    form.append('file', file, file.name);
    fetch(apiUrl('/campaigns/email-images/'), {
      method: 'POST',
      headers: { accept: 'application/json', ...apiAuth.headers() },
      body: form,
      signal: controller.signal,
    })
      .then(async (response) => {
        if (response.status === 401) apiAuth.unauthorized();
        const text = await response.text();
        if (!response.ok) throw apiErrorOf(response.status, text);
        subscriber.next(EmailImageSchema.parse(JSON.parse(text)));
        subscriber.complete();
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) subscriber.error(error);
      });
    return () => controller.abort();
  });
}
