import type { Plugin } from 'vite';

/** `Function("return this")()` and `new Function("return this")()`, webpack's way to find the global object. */
const FUNCTION_GLOBAL = /(?:new )?Function\("return this"\)\(\)/g;

/**
 * grapesjs-mjml's webpack bundle finds the global object with `Function("return this")()`, which the app's
 * Content-Security-Policy (no 'unsafe-eval') refuses and reports. Inside the app that object is `globalThis`:
 * this build step writes it so, in that package only.
 */
export function globalThisForFunctionGlobal(): Plugin {
  return {
    name: 'global-this-for-function-global',
    transform(code, id) {
      if (!id.includes('/node_modules/grapesjs-mjml/')) return null;
      return { code: code.replace(FUNCTION_GLOBAL, 'globalThis'), map: null };
    },
  };
}
