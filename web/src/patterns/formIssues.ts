// Validation issues (the contract schema's, checked in the browser, or the server's `Fields`) put
// on the fields of an antd form, translated. An issue names a field by its path ("Name",
// "Functions.lbs", "Steps.1.Wait"); it goes on the form field of that name, else on the deepest
// field holding it. Issues no field of the form shows are returned, for a message of their own.
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';
import type { FieldIssue } from '../forms/validate';

const nameOf = (name: (string | number)[]) => name.map(String).join('.');

/** The names of the fields the form renders now. */
export function formFieldNames(form: FormInstance): string[] {
  return form.getFieldsError().map((f) => nameOf(f.name));
}

/** The form field an issue belongs on, if the form renders one. */
export function fieldFor(names: readonly string[], field: string): string | undefined {
  // The deepest field that holds it: "Steps.1.DutyUsers.0" goes on the list item's "Steps.1.DutyUsers".
  const parts = field.split('.');
  for (let n = parts.length; n > 0; n--) {
    const at = parts.slice(0, n).join('.');
    if (names.includes(at)) return at;
  }
  return undefined;
}

/** A field name path from its dotted text: positions in a list (Form.List) are numbers. */
const pathOf = (name: string) => name.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

/**
 * Shows the first issue of each field under it and clears the other fields' errors. Returns the
 * issues no rendered field can show.
 */
export function putIssues(form: FormInstance, issues: readonly FieldIssue[], t: TFunction): FieldIssue[] {
  const names = formFieldNames(form);
  const first = new Map<string, FieldIssue>();
  const unplaced: FieldIssue[] = [];
  for (const issue of issues) {
    const at = fieldFor(names, issue.field);
    if (at === undefined) unplaced.push(issue);
    else if (!first.has(at)) first.set(at, issue);
  }
  form.setFields(
    names.map((name) => {
      const issue = first.get(name);
      return { name: pathOf(name), errors: issue ? [t(`messages:${issue.key}`, issue.params)] : [] };
    }),
  );
  return unplaced;
}

/** The field issues of a server refusal (`Fields`), with the server's names mapped to the form's. */
export function serverIssues(err: unknown, rename: Readonly<Record<string, string>> = {}): FieldIssue[] {
  if (!(err instanceof ApiError) || !err.fields?.length) return [];
  return err.fields.map((f) => ({
    field: rename[f.Field] ?? f.Field,
    key: f.Message,
    params: f.Params ?? {},
  }));
}
