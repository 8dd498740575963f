// Form validation with the contract's zod schemas (the same ones the server applies). Issues carry
// an i18n key of the `messages` namespace and its parameters.
import type { ZodType } from 'zod';
import { fieldErrorOf } from '@wt/contract';
import type { Rule } from 'antd/es/form';
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';

export interface FieldIssue {
  field: string;
  key: string;
  params: Record<string, unknown>;
}

export type Validate<V> = (values: V) => FieldIssue[];

/**
 * Validates with a contract schema. Each issue becomes the key and parameters the server would
 * answer for it (the limit that was crossed, the allowed options), on the form's top-level field.
 */
export function schemaValidator<V>(schema: ZodType): Validate<V> {
  return (values) => {
    const r = schema.safeParse(values);
    if (r.success) return [];
    return r.error.issues.map((issue) => {
      const error = fieldErrorOf(issue, values);
      return { field: String(issue.path[0] ?? error.Field), key: error.Message, params: error.Params ?? {} };
    });
  };
}

/** The first issue of each field. */
export function issuesByField(issues: FieldIssue[]): Record<string, FieldIssue> {
  const out: Record<string, FieldIssue> = {};
  for (const i of issues) if (!(i.field in out)) out[i.field] = i;
  return out;
}

export function issueText(t: TFunction, issue: FieldIssue): string {
  return t(`messages:${issue.key}`, issue.params);
}

/**
 * An antd rule for one field that runs the whole form's validator and reports this field's first
 * issue, translated.
 */
export function fieldRule<V>(validate: Validate<V>, form: FormInstance, field: string, t: TFunction): Rule {
  return {
    validator: async () => {
      const issue = validate(form.getFieldsValue(true) as V).find((i) => i.field === field);
      if (issue) throw new Error(issueText(t, issue));
    },
  };
}
