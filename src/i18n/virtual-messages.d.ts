/** A language's messages for one part (see src/i18n/parts.ts and scripts/vite-messages-plugin.ts). */
declare module 'virtual:messages/*' {
  const messages: Record<string, unknown>;
  export default messages;
}
