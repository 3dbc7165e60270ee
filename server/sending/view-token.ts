import { rowTokens, type UnsubscribeTokens } from './unsubscribe-token.js';

/**
 * The tokens of the view-in-browser links (`/v/{token}`, docs/sending.md "View in browser"): the unsubscribe
 * tokens' code under a key of its own purpose (`view`), so a view token is no unsubscribe, open or click token.
 * The company and outbox row are one AES block (revealing nothing) under a 128-bit HMAC tag: 43 characters.
 */
export function viewTokens(secret: string): UnsubscribeTokens {
  const codec = rowTokens(secret, 'view');
  return {
    sign: (target) => codec.sign(target),
    read(token) {
      const read = codec.read(token);
      return read && read.bound.length === 0 ? read.target : null;
    },
  };
}
