import {
  CompanyTokenCreateSchema,
  type CompanyToken,
  type CompanyTokenCreated,
} from '../schemas/accounts.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/** The create dialog as typed. */
export interface TokenForm {
  name: string;
}

/** `POST /api/accounts/company-tokens/`. */
export interface TokenCreateRequest {
  name: string;
}

/** The create dialog's starting values. */
export const NEW_TOKEN_FORM: TokenForm = { name: '' };

/**
 * The company's API tokens (`/api/accounts/company-tokens/`, admins and owners), on the list kit: the
 * whole list (revoked tokens included), a create dialog checked with CompanyTokenCreateSchema that
 * shows the new key once (`creating.created`; the key is forgotten when the dialog closes), and a
 * confirmed revoke (the kit's delete: `item.delete`, `deleteItem`).
 */
export const companyTokensMachine = createListMachine<
  CompanyToken,
  TokenForm,
  NoFilters,
  TokenCreateRequest,
  never,
  CompanyTokenCreated
>({
  id: 'companyTokens',
  pageSize: null,
  searchable: false,
  filters: {},
  form: { empty: NEW_TOKEN_FORM, of: () => NEW_TOKEN_FORM, create: CompanyTokenCreateSchema },
  showCreated: true,
});
