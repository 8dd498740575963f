// Puts validation issues (the contract's, checked in the browser, or the server's Fields) on the
// form's fields, translated, and clears the others.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/client';
import { issuesByField, type FieldIssue } from '../../../forms/validate';

export function showIssues(form: FormInstance, issues: FieldIssue[], t: TFunction, fields: string[]): boolean {
  const first = issuesByField(issues);
  form.setFields(fields.map((name) => ({ name, errors: first[name] ? [t(`messages:${first[name]!.key}`, first[name]!.params)] : [] })));
  return issues.length > 0;
}

/** A server refusal that names fields of this form goes on them; true when it did. */
export function showServerFields(form: FormInstance, err: unknown, t: TFunction, fields: string[], rename: Record<string, string> = {}): boolean {
  if (!(err instanceof ApiError) || !err.fields?.length) return false;
  const issues = err.fields.map((f) => ({ field: rename[f.Field] ?? f.Field, key: f.Message, params: f.Params ?? {} }));
  const mine = issues.filter((i) => fields.includes(i.field));
  if (!mine.length) return false;
  showIssues(form, mine, t, fields);
  return true;
}
