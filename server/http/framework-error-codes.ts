/** Fastify's refusals under the product's own error codes; others keep Fastify's code, lower-cased. */
const PRODUCT_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_BAD_URL: 'bad_url',
};

/** The error code a client error Fastify raised is answered with (`bad_request` when it has none). */
export function frameworkErrorCode(code: string | undefined): string {
  if (!code) return 'bad_request';
  return PRODUCT_CODES[code] ?? code.toLowerCase();
}

/**
 * True for a multipart form the parser (busboy) could not read — no boundary, cut short, a malformed part
 * header: its errors carry no status, so they are known by where they were raised.
 */
export function isMalformedMultipart(error: Error): boolean {
  return /[\\/]@fastify[\\/]busboy[\\/]/.test(error.stack ?? '');
}
