// mjml 5 ships no types: the one call this product makes (docs/templates.md).
declare module 'mjml' {
  /** One problem mjml found in a design. */
  export interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }
  /** What rendering a design answers. */
  export interface MjmlResult {
    html: string;
    errors: MjmlError[];
  }
  /** The options this product passes. */
  export interface MjmlOptions {
    fonts?: Record<string, string>;
    validationLevel?: 'strict' | 'soft' | 'skip';
    ignoreIncludes?: boolean;
    keepComments?: boolean;
    minify?: boolean;
  }
  /** Renders MJML to email HTML; with `validationLevel: 'strict'` it rejects with `errors` on a bad design. */
  export default function mjml2html(source: string, options?: MjmlOptions): Promise<MjmlResult>;
}
