// A dialog holding a form checked with a contract zod schema (the one the server applies), saved
// once: busy state, field errors under the fields (the browser's check and the server's `Fields`),
// other failures as a message, success message, invalidation of the lists, close, and the
// server's answer handed to `onDone` (a password or token shown once).
import { useState, type ReactNode } from 'react';
import { App, Form, Modal, type FormInstance } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import { schemaValidator } from '../forms/validate';
import { errorText } from '../i18n/errors';
import { putIssues, serverIssues } from './formIssues';
import { invalidateAll, type ResultText } from './useAction';

/** A form field described as data: a `Form.Item` with this name, label and input. */
export interface FieldSpec {
  name: string | (string | number)[];
  label?: ReactNode;
  input: ReactNode;
  /** Shows the required mark (the schema does the checking). */
  required?: boolean;
  /** Help text under the field. */
  extra?: ReactNode;
  /** `checked` for a Switch or Checkbox. */
  valuePropName?: string;
  /** Left out of the form when false (a field only some callers may set). */
  visible?: boolean;
}

export interface FormDialogProps<Values extends object, R = unknown> {
  open: boolean;
  title: ReactNode;
  /** The contract's request schema, checked on the merged values before anything is sent. */
  schema: ZodType;
  /**
   * The values the form starts with when it opens. Keys without a field (the row's id) are kept
   * and sent with the form's values. Read when the dialog opens (later changes are ignored). The keys
   * are the request's; the values may be a row's (a string where the request has an enum): the
   * schema checks them before anything is sent.
   */
  initial: { [K in keyof Values]?: unknown };
  /** The fields: `FieldSpec`s, `Form.Item`s, or a function of the form (for fields that watch others). */
  fields: FieldSpec[] | ReactNode | ((form: FormInstance) => ReactNode);
  /** Sends the values (the initial ones merged with the form's); its result goes to `onDone`. */
  submit: (values: Values) => Promise<R>;
  /** After success (and invalidation, and close): the server's answer. */
  onDone?: (result: R, values: Values) => void;
  onClose: () => void;
  /** Shown after success; default `widgets:form.saved`; `false` for none. */
  successMessage?: ResultText<R>;
  /** Query keys (prefixes) asked again after success. */
  invalidate?: readonly (readonly unknown[])[];
  /** Server field names mapped to the form's (`{ Password: 'NewPassword' }`). */
  rename?: Readonly<Record<string, string>>;
  /** Changes the values before they are checked and sent (trimming, a Dayjs to an ISO string ...). */
  transform?: (values: Values) => Values;
  width?: number;
  okText?: ReactNode;
  /** Form layout; default vertical. */
  layout?: 'vertical' | 'horizontal';
  /** data-testid of the form. */
  testId?: string;
  /** Something above the fields (a hint, an alert). */
  header?: ReactNode;
}

function isFieldSpecs(x: unknown): x is FieldSpec[] {
  return (
    Array.isArray(x) && x.every((f) => typeof f === 'object' && f !== null && 'input' in f && 'name' in f)
  );
}

export function renderFields(fields: FieldSpec[]): ReactNode {
  return fields
    .filter((f) => f.visible !== false)
    .map((f) => (
      <Form.Item
        key={String(f.name)}
        name={f.name}
        label={f.label}
        required={f.required}
        extra={f.extra}
        valuePropName={f.valuePropName}
      >
        {f.input}
      </Form.Item>
    ));
}

export function FormDialog<Values extends object, R = unknown>(props: FormDialogProps<Values, R>) {
  // Each opening gets a form of its own, made from the `initial` of that moment: nothing typed in
  // an earlier opening (an "add" left with errors) comes back, and a caller's later render (a list
  // refreshed under the dialog) changes neither the fields nor the keys sent with them.
  const [opening, setOpening] = useState({ open: props.open, initial: props.initial, count: 0 });
  if (opening.open !== props.open)
    setOpening({
      open: props.open,
      initial: props.open ? props.initial : opening.initial,
      count: opening.count + (props.open ? 1 : 0),
    });
  return <FormDialogBody<Values, R> key={opening.count} {...props} initial={opening.initial} />;
}

function FormDialogBody<Values extends object, R>(props: FormDialogProps<Values, R>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const initial = props.initial;

  const submit = async () => {
    // Every value set, rendered or not (the id, hidden keys), then what the fields hold now.
    let values = { ...initial, ...(form.getFieldsValue() as object) } as Values;
    if (props.transform) values = props.transform(values);
    const unplaced = putIssues(form, schemaValidator<Values>(props.schema)(values), t);
    if (form.getFieldsError().some((f) => f.errors.length) || unplaced.length) {
      if (unplaced.length)
        message.error(unplaced.map((i) => `${i.field}: ${t(`messages:${i.key}`, i.params)}`).join('; '));
      return;
    }
    setBusy(true);
    try {
      const result = await props.submit(values);
      const text =
        props.successMessage === undefined
          ? t('widgets:form.saved')
          : typeof props.successMessage === 'function'
            ? props.successMessage(result)
            : props.successMessage;
      if (text !== false && text !== null && text !== '') message.success(text);
      await invalidateAll(qc, props.invalidate);
      props.onClose();
      props.onDone?.(result, values);
    } catch (e) {
      // A refusal naming fields of the form goes under them; any other (or one naming fields the
      // form does not show) is a message naming them.
      const issues = serverIssues(e, props.rename);
      if (!issues.length || putIssues(form, issues, t).length) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const fields = props.fields;
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okText={props.okText}
      width={props.width ?? 560}
      maskClosable={false}
      // The fields leave with the dialog (a picker stops asking the server).
      destroyOnHidden
    >
      {props.header}
      <Form
        form={form}
        layout={props.layout ?? 'vertical'}
        data-testid={props.testId}
        initialValues={initial}
        // A field's refusal goes away as soon as it is changed.
        onValuesChange={(changed: Record<string, unknown>) =>
          form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })))
        }
      >
        {isFieldSpecs(fields) ? renderFields(fields) : typeof fields === 'function' ? fields(form) : fields}
      </Form>
    </Modal>
  );
}
