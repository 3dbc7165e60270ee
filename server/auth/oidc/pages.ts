import { createHash } from 'node:crypto';
import { LIMITS } from '../../../src/schemas/constants.js';
import { HTML_LANG } from '../../../src/schemas/constants.js';
import { escapeHtml } from '../../sending/merge-template.js';
import { fill, signinMessages, type PageLocale, type SigninMessages } from './language.js';

/**
 * The Content-Security-Policy of every sign-in page: only the pages' own style sheet (by its hash), no
 * scripts (unless a nonce is given for the sign-out auto-submit), forms posting back to this server and
 * on to the app, never framed.
 */
export function pageSecurityPolicy(formTargets: readonly string[], scriptNonce?: string): string {
  return [
    "default-src 'none'",
    `style-src '${STYLE_HASH}'`,
    scriptNonce ? `script-src 'nonce-${scriptNonce}'` : null,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]
    .filter((directive) => directive !== null)
    .join('; ');
}

// System fonts only (no external fonts or CDNs); 16px inputs keep phones from zooming in on focus.
const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;align-items:flex-start;justify-content:center;padding:32px 16px;
  background:#f3f5f8;color:#1b1f24;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",
  "Helvetica Neue",Arial,"PingFang SC","Hiragino Sans","Microsoft YaHei",sans-serif}
main{width:100%;max-width:440px;background:#fff;border:1px solid #d8dde4;border-radius:12px;padding:28px 24px;
  box-shadow:0 1px 3px rgba(16,24,40,.08)}
.brand{margin:0 0 16px;font-weight:700;font-size:15px;letter-spacing:.04em;text-transform:uppercase;color:#0b7a6c}
h1{margin:0 0 4px;font-size:24px;line-height:1.25}
.intro{margin:0 0 20px;color:#4a5563}
.field{margin:0 0 16px}
label{display:block;font-weight:600;margin:0 0 4px}
.optional{font-weight:400;color:#5b6675}
input[type=email],input[type=password],input[type=text]{display:block;width:100%;padding:10px 12px;font:inherit;
  color:inherit;background:#fff;border:1px solid #8a94a3;border-radius:8px}
input[aria-invalid=true]{border-color:#b3261e;border-width:2px}
.check{display:flex;gap:10px;align-items:flex-start}
.check input{width:20px;height:20px;margin:2px 0 0;flex:none}
.check label{font-weight:400;margin:0}
.hint{margin:4px 0 0;font-size:14px;color:#5b6675}
.field-error{margin:4px 0 0;font-size:14px;color:#b3261e;font-weight:600}
.alert{margin:0 0 16px;padding:10px 12px;border-radius:8px;background:#fdecea;color:#8c1d18;border:1px solid #f1b8b3}
button{display:block;width:100%;padding:12px 16px;font:inherit;font-weight:700;color:#fff;background:#0b7a6c;
  border:0;border-radius:8px;cursor:pointer}
button:hover{background:#066a5d}
a{color:#0b7a6c}
:focus-visible{outline:3px solid #0b7a6c;outline-offset:2px}
input:focus-visible{outline:3px solid #0b7a6c;outline-offset:1px;border-color:#0b7a6c}
.switch{margin:20px 0 0;text-align:center}
@media (prefers-color-scheme: dark){
  body{background:#12161c;color:#e7eaee}
  main{background:#1b2028;border-color:#323a46}
  .intro,.hint,.optional{color:#aab3bf}
  input[type=email],input[type=password],input[type=text]{background:#12161c;border-color:#6b7685}
  .brand,a{color:#55c6b6}
  .alert{background:#3a1714;color:#ffd9d5;border-color:#6e2a24}
  .field-error{color:#ffb4ab}
  input[aria-invalid=true]{border-color:#ffb4ab}
}
`;

// Every page carries the same <style> element; the policy allows exactly that text and no other.
const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}`;

/** Renders a whole page in a language, under the installation's product name, around already-escaped body HTML. */
export function pageHtml(locale: PageLocale, title: string, bodyHtml: string, headExtra = ''): string {
  return `<!DOCTYPE html>
<html lang="${HTML_LANG[locale.language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(locale.brand)}</title>
<style>${STYLE}</style>
${headExtra}
</head>
<body>
<main>
<p class="brand">${escapeHtml(locale.brand)}</p>
${bodyHtml}
</main>
</body>
</html>`;
}

/** Field errors by form field name, already in the page's language. */
export type FieldErrors = Partial<Record<string, string>>;

interface InputOptions {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  value?: string;
  autocomplete: string;
  required: boolean;
  maxLength: number;
  error?: string | undefined;
  hint?: string;
  optionalLabel?: string;
  autofocus?: boolean;
}

function inputField(options: InputOptions): string {
  const id = `field-${options.name}`;
  const describedBy = [options.hint ? `${id}-hint` : null, options.error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  const attributes = [
    `id="${id}"`,
    `name="${escapeHtml(options.name)}"`,
    `type="${options.type}"`,
    `autocomplete="${escapeHtml(options.autocomplete)}"`,
    `maxlength="${options.maxLength}"`,
    options.value !== undefined ? `value="${escapeHtml(options.value)}"` : '',
    options.required ? 'required aria-required="true"' : '',
    options.error ? 'aria-invalid="true"' : '',
    describedBy ? `aria-describedby="${describedBy}"` : '',
    options.autofocus ? 'autofocus' : '',
    options.type === 'email' ? 'inputmode="email" autocapitalize="none" spellcheck="false"' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const optional = options.optionalLabel
    ? ` <span class="optional">(${escapeHtml(options.optionalLabel)})</span>`
    : '';
  return `<div class="field">
<label for="${id}">${escapeHtml(options.label)}${optional}</label>
<input ${attributes}>
${options.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : ''}
${options.error ? `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>` : ''}
</div>`;
}

function alert(message: string | undefined): string {
  return message ? `<div class="alert" role="alert">${escapeHtml(message)}</div>` : '';
}

/** What the login page shows. */
export interface LoginPageInput {
  locale: PageLocale;
  /** Where the form posts. */
  action: string;
  /** The registration page of the same interaction. */
  registerHref: string;
  /** The email typed before, kept after a failure. */
  email?: string;
  /** A message over the form (failed or throttled sign-in). */
  formError?: string;
  fieldErrors?: FieldErrors;
}

/** The sign-in page. */
export function loginPage(input: LoginPageInput): string {
  const text = signinMessages(input.locale);
  const fieldErrors = input.fieldErrors ?? {};
  const hasEmail = Boolean(input.email);
  const body = `<h1>${escapeHtml(text.login.title)}</h1>
<p class="intro">${escapeHtml(text.login.intro)}</p>
${alert(input.formError)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${inputField({
  name: 'email',
  label: text.fields.email,
  type: 'email',
  value: input.email ?? '',
  autocomplete: 'username',
  required: true,
  maxLength: 254,
  error: fieldErrors.email,
  autofocus: !hasEmail,
})}
${inputField({
  name: 'password',
  label: text.fields.password,
  type: 'password',
  autocomplete: 'current-password',
  required: true,
  maxLength: 200,
  error: fieldErrors.password,
  autofocus: hasEmail,
})}
<button type="submit">${escapeHtml(text.login.submit)}</button>
</form>
<p class="switch">${escapeHtml(text.login.noAccount)} <a href="${escapeHtml(input.registerHref)}">${escapeHtml(
    text.login.registerLink,
  )}</a></p>`;
  return pageHtml(input.locale, text.login.title, body);
}

/** The values a registration form shows again after a failed submit (never the passwords). */
export interface RegistrationValues {
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  accept_terms?: boolean;
}

/** What the registration page shows. */
export interface RegisterPageInput {
  locale: PageLocale;
  action: string;
  loginHref: string;
  values?: RegistrationValues;
  formError?: string;
  fieldErrors?: FieldErrors;
}

/** The registration page: a new company and its owner. */
export function registerPage(input: RegisterPageInput): string {
  const text = signinMessages(input.locale);
  const values = input.values ?? {};
  const errors = input.fieldErrors ?? {};
  const firstInvalid = [
    'company_name',
    'first_name',
    'last_name',
    'email',
    'password',
    'confirm_password',
  ].find((name) => errors[name]);
  const focus = (name: string) => (firstInvalid ? firstInvalid === name : name === 'company_name');
  const termsError = errors.accept_terms;
  const body = `<h1>${escapeHtml(text.register.title)}</h1>
<p class="intro">${escapeHtml(text.register.intro)}</p>
${alert(input.formError)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${inputField({
  name: 'company_name',
  label: text.fields.companyName,
  type: 'text',
  value: values.company_name ?? '',
  autocomplete: 'organization',
  required: true,
  maxLength: LIMITS.nameMaxLength,
  error: errors.company_name,
  autofocus: focus('company_name'),
})}
${inputField({
  name: 'first_name',
  label: text.fields.firstName,
  type: 'text',
  value: values.first_name ?? '',
  autocomplete: 'given-name',
  required: true,
  maxLength: 100,
  error: errors.first_name,
  autofocus: focus('first_name'),
})}
${inputField({
  name: 'last_name',
  label: text.fields.lastName,
  type: 'text',
  value: values.last_name ?? '',
  autocomplete: 'family-name',
  required: false,
  maxLength: 100,
  error: errors.last_name,
  optionalLabel: text.fields.optional,
  autofocus: focus('last_name'),
})}
${inputField({
  name: 'email',
  label: text.fields.email,
  type: 'email',
  value: values.email ?? '',
  autocomplete: 'email',
  required: true,
  maxLength: 254,
  error: errors.email,
  autofocus: focus('email'),
})}
${inputField({
  name: 'password',
  label: text.fields.password,
  type: 'password',
  autocomplete: 'new-password',
  required: true,
  maxLength: 200,
  error: errors.password,
  hint: fill(text.fields.passwordHint, { min: LIMITS.passwordMinLength }),
  autofocus: focus('password'),
})}
${inputField({
  name: 'confirm_password',
  label: text.fields.confirmPassword,
  type: 'password',
  autocomplete: 'new-password',
  required: true,
  maxLength: 200,
  error: errors.confirm_password,
  autofocus: focus('confirm_password'),
})}
<div class="field">
<div class="check">
<input id="field-accept_terms" name="accept_terms" type="checkbox" value="on" required aria-required="true"${
    values.accept_terms ? ' checked' : ''
  }${termsError ? ' aria-invalid="true" aria-describedby="field-accept_terms-error"' : ''}>
<label for="field-accept_terms">${escapeHtml(text.fields.acceptTerms)}</label>
</div>
${termsError ? `<p class="field-error" id="field-accept_terms-error">${escapeHtml(termsError)}</p>` : ''}
</div>
<button type="submit">${escapeHtml(text.register.submit)}</button>
</form>
<p class="switch">${escapeHtml(text.register.haveAccount)} <a href="${escapeHtml(input.loginHref)}">${escapeHtml(
    text.register.loginLink,
  )}</a></p>`;
  return pageHtml(input.locale, text.register.title, body);
}

/** A page with a title, a paragraph, an optional technical detail and a link (expired page, errors). */
export function messagePage(
  locale: PageLocale,
  message: { title: string; body?: string; detail?: string; linkHref: string; linkText: string },
): string {
  const body = `<h1>${escapeHtml(message.title)}</h1>
${message.body ? `<p class="intro">${escapeHtml(message.body)}</p>` : ''}
${message.detail ? `<p class="hint">${escapeHtml(message.detail)}</p>` : ''}
<p><a href="${escapeHtml(message.linkHref)}">${escapeHtml(message.linkText)}</a></p>`;
  return pageHtml(locale, message.title, body);
}

/**
 * The sign-out page: the provider's own confirmation form (with its CSRF field), confirmed in advance and
 * submitted by a script at once, so nobody is asked "are you sure"; a button remains for browsers
 * without scripts.
 */
export function signOutPage(locale: PageLocale, providerForm: string, scriptNonce: string): string {
  const text: SigninMessages = signinMessages(locale);
  // The provider's form carries the xsrf token; adding logout=yes confirms the sign-out.
  const confirmedForm = providerForm.replace(
    /<\/form>\s*$/,
    `<input type="hidden" name="logout" value="yes"><noscript><button type="submit">${escapeHtml(
      text.signOut.continue,
    )}</button></noscript></form>`,
  );
  const body = `<h1>${escapeHtml(text.signOut.progress)}</h1>
${confirmedForm}
<script nonce="${escapeHtml(scriptNonce)}">document.getElementById('op.logoutForm').submit();</script>`;
  return pageHtml(locale, text.signOut.progress, body);
}
