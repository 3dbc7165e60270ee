import {
  CompanyUserCreateSchema,
  CompanyUserUpdateSchema,
  type CompanyUser,
  type CompanyUserCreate,
  type CompanyUserUpdate,
} from '../schemas/accounts.js';
import { LIMITS } from '../schemas/constants.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/**
 * The user dialog as typed: create uses email, names, role and password, edit the username, names,
 * role and active flag. The role is text until the schema accepts it.
 */
export interface UserForm {
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  role: string;
  password: string;
  is_active: boolean;
}

/** The create dialog's starting values: a marketer, the least surprising role to hand out. */
export const NEW_USER_FORM: UserForm = {
  email: '',
  first_name: '',
  last_name: '',
  username: '',
  role: 'marketer',
  password: '',
  is_active: true,
};

/**
 * The company's users (`/api/accounts/user/`, admins and owners), on the list kit: a paged list
 * searched as one types, a create dialog (role and first password) checked with
 * CompanyUserCreateSchema, an edit dialog (username, names, role, active) checked with
 * CompanyUserUpdateSchema, and a confirmed delete. The server's refusals (the last owner, an owner
 * changed by an admin, a taken email) stay in the dialog.
 */
export const companyUsersMachine = createListMachine<
  CompanyUser,
  UserForm,
  NoFilters,
  CompanyUserCreate,
  CompanyUserUpdate
>({
  id: 'companyUsers',
  pageSize: LIMITS.defaultPageSize,
  searchable: true,
  filters: {},
  form: {
    empty: NEW_USER_FORM,
    // The password is only asked when creating: an edit starts with it blank and never sends it.
    of: (user) => ({
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      username: user.username,
      role: user.role,
      password: '',
      is_active: user.is_active,
    }),
    create: CompanyUserCreateSchema,
    update: CompanyUserUpdateSchema,
  },
});
