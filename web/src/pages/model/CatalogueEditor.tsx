// The edit dialog and row actions shared by the three catalogue pages (models, protocols,
// commands): a form checked with the contract's schema, saved and deleted through the page's calls.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { App, Button, Form, Modal, Popconfirm, Space, type FormInstance } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import { schemaValidator } from '../../forms/validate';
import { errorText } from '../../i18n/errors';
import { showIssues, showServerFields } from '../devices/dialogs/formErrors';

export function EditDialog<V extends Record<string, unknown>>(props: {
  open: boolean;
  title: ReactNode;
  schema: ZodType;
  fields: string[];
  initial: V | null;
  save: (values: V) => Promise<unknown>;
  onClose: () => void;
  queryKey: readonly unknown[];
  children: (form: FormInstance) => ReactNode;
  width?: number;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const validate = schemaValidator<V>(props.schema);
  const { open } = props;
  // The pages build `initial` on each render: read it when the dialog opens, not on every change.
  const initial = useRef(props.initial);
  initial.current = props.initial;

  // Filled when the dialog opens (not after its animation, which would wipe what was typed).
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initial.current) form.setFieldsValue(initial.current);
  }, [open, form]);

  const submit = async () => {
    const values = { ...(props.initial ?? {}), ...form.getFieldsValue() } as V;
    if (showIssues(form, validate(values), t, props.fields)) return;
    setBusy(true);
    try {
      await props.save(values);
      message.success(t('messages:device.saved'));
      await qc.invalidateQueries({ queryKey: props.queryKey });
      props.onClose();
    } catch (e) {
      if (!showServerFields(form, e, t, props.fields)) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      width={props.width ?? 560}
      forceRender
    >
      <Form form={form} layout="vertical">
        {props.children(form)}
      </Form>
    </Modal>
  );
}

export function RowActions({ onEdit, onDelete, name }: { onEdit: () => void; onDelete: () => Promise<void>; name: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Space size={0}>
      <Button type="link" size="small" icon={<EditOutlined />} onClick={onEdit}>
        {t('model:edit')}
      </Button>
      <Popconfirm
        title={t('model:confirmDelete', { name })}
        onConfirm={() =>
          onDelete().then(
            () => void message.success(t('messages:device.deleted')),
            (e: unknown) => void message.error(errorText(t, e)),
          )
        }
      >
        <Button type="link" size="small" danger icon={<DeleteOutlined />}>
          {t('model:delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
