// Rules of the password forms (SPEC §5) on top of the contract's schemas.
import { changePasswordRequest, loginRequest, registerRequest, findPasswordRequest, resetPasswordRequest, strongPassword } from '@wt/contract';
import { schemaValidator, type FieldIssue, type Validate } from './validate';

export interface LoginValues {
  LoginName?: string;
  Password?: string;
}
export interface RegisterValues extends LoginValues {
  ConfirmPassword?: string;
  Email?: string;
}
export interface FindPasswordValues {
  LoginName?: string;
  Email?: string;
}
export interface ResetPasswordValues {
  Token?: string;
  NewPassword?: string;
  ConfirmPassword?: string;
}
export interface ChangePasswordValues {
  OldPass?: string;
  NewPass?: string;
  RePass?: string;
}

export const validateLogin: Validate<LoginValues> = schemaValidator(loginRequest);
export const validateFindPassword: Validate<FindPasswordValues> = schemaValidator(findPasswordRequest);

/** The confirm field is compared even while other fields still have issues. */
function confirmIssue(field: string, value: string | undefined, expected: string | undefined): FieldIssue[] {
  if (!value) return [{ field, key: 'validation.passwordConfirmRequired', params: {} }];
  if (value !== expected) return [{ field, key: 'validation.passwordMismatch', params: {} }];
  return [];
}

function merge(issues: FieldIssue[], extra: FieldIssue[]): FieldIssue[] {
  const fields = new Set(extra.map((i) => i.field));
  return [...issues.filter((i) => !fields.has(i.field)), ...extra];
}

const registerSchema = schemaValidator<RegisterValues>(registerRequest);
export const validateRegister: Validate<RegisterValues> = (v) =>
  merge(registerSchema(v), confirmIssue('ConfirmPassword', v.ConfirmPassword, v.Password));

const resetSchema = schemaValidator<ResetPasswordValues>(resetPasswordRequest);
export const validateResetPassword: Validate<ResetPasswordValues> = (v) =>
  merge(resetSchema(v), confirmIssue('ConfirmPassword', v.ConfirmPassword, v.NewPassword));

const changeSchema = schemaValidator<ChangePasswordValues>(changePasswordRequest);
const strong = schemaValidator<string>(strongPassword);

/**
 * Change password: old required; new required, strong and different from the old; the confirmation
 * required, under the same rules, and equal to the new one.
 */
export const validateChangePassword: Validate<ChangePasswordValues> = (v) => {
  const base = changeSchema({ OldPass: v.OldPass ?? '', NewPass: v.NewPass ?? '', RePass: v.RePass ?? '' }).filter(
    (i) => i.field !== 'RePass',
  );
  let confirm: FieldIssue[];
  if (!v.RePass) confirm = [{ field: 'RePass', key: 'validation.passwordConfirmRequired', params: {} }];
  else {
    confirm = strong(v.RePass).map((i) => ({ ...i, field: 'RePass' }));
    if (confirm.length === 0 && v.RePass !== v.NewPass) confirm = [{ field: 'RePass', key: 'validation.passwordMismatch', params: {} }];
  }
  return [...base, ...confirm.slice(0, 1)];
};
