import { z } from 'zod';
import { fromPromise } from 'xstate';
import { accountSettingsMachine } from '../../machines/account-settings.machine.js';
import { companyTokensMachine, type TokenCreateRequest } from '../../machines/company-tokens.machine.js';
import { companyUsersMachine } from '../../machines/company-users.machine.js';
import { emailProviderMachine } from '../../machines/email-provider.machine.js';
import { emailSendersMachine } from '../../machines/email-senders.machine.js';
import type { ListQuery, NoFilters, UpdateRequest } from '../../machines/kit/list-machine.js';
import { passwordChangeMachine } from '../../machines/password-change.machine.js';
import { postalAddressMachine } from '../../machines/postal-address.machine.js';
import { provideSettingsForm } from '../../machines/support/settings-form.js';
import { senderVerificationMachine } from '../../machines/sender-verification.machine.js';
import {
  AccountSettingsSchema,
  CompanyTokenCreatedSchema,
  CompanyTokenSchema,
  CompanyUserPageSchema,
  CompanyUserSchema,
  EmailProviderSchema,
  EmailSenderSchema,
  TokenResponseSchema,
  type AccountSettings,
  type CompanyToken,
  type CompanyUser,
  type CompanyUserCreate,
  type CompanyUserUpdate,
  type EmailSender,
  type EmailSenderInput,
  type PasswordChange,
} from '../../schemas/accounts.js';
import { VerificationSentSchema } from '../../schemas/sender-verification.js';
import {
  PostalAddressAnswerSchema,
  type EmailProviderInput,
  type PostalAddress,
} from '../../schemas/sending.js';
import { apiRequest } from '../../services/api-client.js';
import { applyLanguage } from '../../services/language.js';
import { apiCall } from './answer.js';

/** The Profile tab's form with `/api/accounts/settings/` and the language service. */
export const accountSettingsLogic = provideSettingsForm(accountSettingsMachine, {
  load: apiCall(() =>
    apiRequest({ method: 'GET', path: '/accounts/settings/', schema: AccountSettingsSchema }),
  ),
  save: apiCall((settings: AccountSettings) =>
    apiRequest({ method: 'PUT', path: '/accounts/settings/', body: settings, schema: AccountSettingsSchema }),
  ),
  // Applied only after a save, so the saved settings are there.
  apply: fromPromise<unknown, AccountSettings | null>(({ input }) => applyLanguage(input?.language ?? 'en')),
});

/** The Password tab's form with `PUT /api/accounts/password/`. */
export const passwordChangeLogic = provideSettingsForm(passwordChangeMachine, {
  save: apiCall((change: PasswordChange) =>
    apiRequest({ method: 'PUT', path: '/accounts/password/', body: change, schema: TokenResponseSchema }),
  ),
});

/** The Users tab's machine with `/api/accounts/user/`. */
export const companyUsersLogic = companyUsersMachine.provide({
  actors: {
    loadList: apiCall((query: ListQuery<NoFilters>) =>
      apiRequest({
        method: 'GET',
        path: '/accounts/user/',
        query: { page: query.page, page_size: query.page_size, q: query.q },
        schema: CompanyUserPageSchema,
      }),
    ),
    createItem: apiCall((user: CompanyUserCreate) =>
      apiRequest({ method: 'POST', path: '/accounts/user/', body: user, schema: CompanyUserSchema }),
    ),
    updateItem: apiCall(({ item, changes }: UpdateRequest<CompanyUser, CompanyUserUpdate>) =>
      apiRequest({
        method: 'PUT',
        path: `/accounts/user/${item.id}/`,
        body: changes,
        schema: CompanyUserSchema,
      }),
    ),
    deleteItem: apiCall((user: CompanyUser) =>
      apiRequest({ method: 'DELETE', path: `/accounts/user/${user.id}/` }),
    ),
  },
});

/** The API tokens tab's machine with `/api/accounts/company-tokens/`; revoking is the kit's delete. */
export const companyTokensLogic = companyTokensMachine.provide({
  actors: {
    loadList: apiCall((_query: ListQuery<NoFilters>) =>
      apiRequest({ method: 'GET', path: '/accounts/company-tokens/', schema: z.array(CompanyTokenSchema) }),
    ),
    createItem: apiCall((token: TokenCreateRequest) =>
      apiRequest({
        method: 'POST',
        path: '/accounts/company-tokens/',
        body: token,
        schema: CompanyTokenCreatedSchema,
      }),
    ),
    deleteItem: apiCall((token: CompanyToken) =>
      apiRequest({ method: 'DELETE', path: `/accounts/delete-company-token/${token.id}/` }),
    ),
  },
});

/** The Email senders tab's machine with `/api/campaigns/email-sender/`. */
export const emailSendersLogic = emailSendersMachine.provide({
  actors: {
    loadList: apiCall((_query: ListQuery<NoFilters>) =>
      apiRequest({ method: 'GET', path: '/campaigns/email-sender/', schema: z.array(EmailSenderSchema) }),
    ),
    createItem: apiCall((sender: EmailSenderInput) =>
      apiRequest({
        method: 'POST',
        path: '/campaigns/email-sender/',
        body: sender,
        schema: EmailSenderSchema,
      }),
    ),
    updateItem: apiCall(({ item, changes }: UpdateRequest<EmailSender, EmailSenderInput>) =>
      apiRequest({
        method: 'PUT',
        path: `/campaigns/email-sender/${item.id}/`,
        body: changes,
        schema: EmailSenderSchema,
      }),
    ),
    deleteItem: apiCall((sender: EmailSender) =>
      apiRequest({ method: 'DELETE', path: `/campaigns/email-sender/${sender.id}/` }),
    ),
  },
});

/** The senders tab's verification emails with `POST /api/campaigns/email-sender/{id}/verification/`. */
export const senderVerificationLogic = senderVerificationMachine.provide({
  actors: {
    sendVerification: apiCall((senderId: number) =>
      apiRequest({
        method: 'POST',
        path: `/campaigns/email-sender/${senderId}/verification/`,
        schema: VerificationSentSchema,
      }),
    ),
  },
});

/** The Email senders tab's postal address form with `/api/accounts/postal-address/`. */
export const postalAddressLogic = provideSettingsForm(postalAddressMachine, {
  load: apiCall(() =>
    apiRequest({ method: 'GET', path: '/accounts/postal-address/', schema: PostalAddressAnswerSchema }),
  ),
  save: apiCall((address: PostalAddress) =>
    apiRequest({
      method: 'PUT',
      path: '/accounts/postal-address/',
      body: address,
      schema: PostalAddressAnswerSchema,
    }),
  ),
});

/** The Email senders tab's email provider form with `/api/customers/email-provider/`. */
export const emailProviderLogic = provideSettingsForm(emailProviderMachine, {
  load: apiCall(() =>
    apiRequest({ method: 'GET', path: '/customers/email-provider/', schema: z.array(EmailProviderSchema) }),
  ),
  save: apiCall((input: EmailProviderInput) =>
    apiRequest({
      method: 'PUT',
      path: '/customers/email-provider/',
      body: input,
      schema: EmailProviderSchema,
    }),
  ),
  remove: apiCall((id: number) => apiRequest({ method: 'DELETE', path: `/customers/email-provider/${id}/` })),
});
