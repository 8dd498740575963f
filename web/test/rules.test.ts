import { describe, expect, it } from 'vitest';
import { validateChangePassword, validateFindPassword, validateLogin, validateRegister, validateResetPassword } from '../src/forms/passwords';
import type { FieldIssue } from '../src/forms/validate';

const first = (issues: FieldIssue[], field: string) => issues.find((i) => i.field === field)?.key;

describe('login form (SPEC §5)', () => {
  it('requires account and password', () => {
    const issues = validateLogin({});
    expect(first(issues, 'LoginName')).toBe('validation.accountRequired');
    expect(first(issues, 'Password')).toBe('validation.passwordRequired');
  });
  it('needs at least 6 characters', () => {
    expect(first(validateLogin({ LoginName: 'admin', Password: 'ab12' }), 'Password')).toBe('validation.passwordMin');
  });
  it('accepts only letters and digits', () => {
    expect(first(validateLogin({ LoginName: 'admin', Password: 'abc 123!' }), 'Password')).toBe('validation.passwordAlnum');
  });
  it('passes a valid login', () => {
    expect(validateLogin({ LoginName: 'admin', Password: 'admin123' })).toEqual([]);
  });
});

describe('register form', () => {
  const ok = { LoginName: 'newuser', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'a@example.com' };
  it('passes when everything is filled and the passwords match', () => {
    expect(validateRegister(ok)).toEqual([]);
  });
  it('requires the confirmation and the recovery email', () => {
    const issues = validateRegister({ ...ok, ConfirmPassword: '', Email: '' });
    expect(first(issues, 'ConfirmPassword')).toBe('validation.passwordConfirmRequired');
    expect(first(issues, 'Email')).toBe('validation.emailRequired');
  });
  it('needs the confirmation equal to the password, even while another field is wrong', () => {
    expect(first(validateRegister({ ...ok, ConfirmPassword: 'abc124' }), 'ConfirmPassword')).toBe('validation.passwordMismatch');
    expect(first(validateRegister({ ...ok, LoginName: '', ConfirmPassword: 'abc124' }), 'ConfirmPassword')).toBe('validation.passwordMismatch');
  });
  it('checks the email format', () => {
    expect(first(validateRegister({ ...ok, Email: 'nope' }), 'Email')).toBe('validation.emailInvalid');
  });
});

describe('forgot and reset password', () => {
  it('forgot needs account and email', () => {
    const issues = validateFindPassword({});
    expect(first(issues, 'LoginName')).toBe('validation.accountRequired');
    expect(first(issues, 'Email')).toBe('validation.emailRequired');
  });
  it('reset needs 6 characters and a matching confirmation', () => {
    expect(first(validateResetPassword({ Token: 't', NewPassword: 'abc', ConfirmPassword: 'abc' }), 'NewPassword')).toBe('validation.passwordMin');
    expect(first(validateResetPassword({ Token: 't', NewPassword: 'abc123', ConfirmPassword: 'abc321' }), 'ConfirmPassword')).toBe('validation.passwordMismatch');
    expect(validateResetPassword({ Token: 't', NewPassword: 'abc123', ConfirmPassword: 'abc123' })).toEqual([]);
  });
});

describe('change password (in the shell)', () => {
  const ok = { OldPass: 'oldPass1', NewPass: 'NewPass1', RePass: 'NewPass1' };
  it('passes a strong new password confirmed', () => {
    expect(validateChangePassword(ok)).toEqual([]);
  });
  it('requires the old, the new and the confirmation', () => {
    const issues = validateChangePassword({});
    expect(first(issues, 'OldPass')).toBe('validation.oldPasswordRequired');
    expect(first(issues, 'NewPass')).toBe('validation.newPasswordRequired');
    expect(first(issues, 'RePass')).toBe('validation.passwordConfirmRequired');
  });
  it('needs at least 6 and at most 30 characters', () => {
    expect(first(validateChangePassword({ ...ok, NewPass: 'Ab1', RePass: 'Ab1' }), 'NewPass')).toBe('validation.passwordMin');
    const long = `Aa1${'x'.repeat(28)}`;
    expect(first(validateChangePassword({ ...ok, NewPass: long, RePass: long }), 'NewPass')).toBe('validation.passwordComplex');
  });
  it('needs a digit, an uppercase and a lowercase letter', () => {
    for (const weak of ['abcdef1', 'ABCDEF1', 'Abcdefg', 'Abc 123']) {
      expect(first(validateChangePassword({ ...ok, NewPass: weak, RePass: weak }), 'NewPass'), weak).toBe('validation.passwordComplex');
    }
  });
  it('refuses a new password equal to the old one', () => {
    expect(first(validateChangePassword({ OldPass: 'NewPass1', NewPass: 'NewPass1', RePass: 'NewPass1' }), 'NewPass')).toBe('validation.passwordSameAsOld');
  });
  it('applies the same rules to the confirmation and needs it equal', () => {
    expect(first(validateChangePassword({ ...ok, RePass: 'weak' }), 'RePass')).toBe('validation.passwordMin');
    expect(first(validateChangePassword({ ...ok, RePass: 'Other1Pass' }), 'RePass')).toBe('validation.passwordMismatch');
  });
});
