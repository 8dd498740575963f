// Batch add, bind, unbind and delete over a list of IMEIs (typed, pasted, or the selected rows).
// The list is checked here first (15 digits, no repeats, as many ICCIDs as IMEIs when given); the
// server's answer lists each refused device with its reason.
import { useEffect, useState } from 'react';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../i18n/errors';
import { batchOutcome, checkImeiIccid, parseList } from '../deviceForms';
import { invalidateDevices, useDictionary } from '../queries';
import { useBatchFeedback } from './batchFeedback';
import { showIssues } from './formErrors';

export type BatchKind = 'add' | 'bind' | 'unbind' | 'delete';

export function BatchImeiDialog(props: { kind: BatchKind | null; imeis: string[]; userId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm();
  const dict = useDictionary();
  const qc = useQueryClient();
  const feedback = useBatchFeedback();
  const [busy, setBusy] = useState(false);
  const kind = props.kind;

  useEffect(() => {
    if (kind) form.setFieldsValue({ imeis: props.imeis.join('\n'), iccids: '', ModelId: undefined, NamePrefix: '' });
  }, [kind, props.imeis, form]);

  const send = async (v: { imeis?: string; iccids?: string; ModelId?: number; NamePrefix?: string }) => {
    const Imeis = parseList(v.imeis);
    setBusy(true);
    try {
      const r =
        kind === 'add'
          ? await call('/Device/batchDevices', { ModelId: v.ModelId as number, Imeis, Iccids: parseList(v.iccids), NamePrefix: v.NamePrefix || undefined, UserId: props.userId })
          : kind === 'bind'
            ? await call('/Device/bindDeviceListAdd', { Imeis, UserId: props.userId })
            : kind === 'unbind'
              ? await call('/Device/unBandByImeis', { Imeis, UserId: props.userId })
              : await call('/Device/BatchDelDevices', { Imeis });
      await invalidateDevices(qc);
      feedback(batchOutcome(r), `devices:batch.done.${kind}`);
      props.onClose();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const submit = () => {
    const v = form.getFieldsValue();
    const issues = checkImeiIccid(v.imeis, kind === 'add' ? v.iccids : undefined);
    if (kind === 'add' && !v.ModelId) issues.push({ field: 'ModelId', key: 'validation.modelRequired', params: {} });
    if (showIssues(form, issues, t, ['imeis', 'iccids', 'ModelId'])) return;
    if (kind === 'delete') {
      modal.confirm({
        title: t('devices:batch.confirmDelete', { count: parseList(v.imeis).length }),
        okButtonProps: { danger: true },
        onOk: () => send(v),
      });
    } else void send(v);
  };

  return (
    <Modal open={kind !== null} title={kind ? t(`devices:batch.title.${kind}`) : ''} onCancel={props.onClose} onOk={submit} confirmLoading={busy} width={560} forceRender>
      <Form form={form} layout="vertical" data-testid="batch-form">
        {kind === 'add' ? (
          <Form.Item name="ModelId" label={t('devices:field.model')} required>
            <Select showSearch={{ optionFilterProp: 'label' }} options={(dict.data?.Models ?? []).map((m) => ({ value: m.ModelId, label: m.Name }))} />
          </Form.Item>
        ) : null}
        <Form.Item name="imeis" label={t('devices:batch.imeis')} required extra={t('devices:batch.listHint')}>
          <Input.TextArea rows={6} />
        </Form.Item>
        {kind === 'add' ? (
          <>
            <Form.Item name="iccids" label={t('devices:batch.iccids')} extra={t('devices:batch.iccidHint')}>
              <Input.TextArea rows={4} />
            </Form.Item>
            <Form.Item name="NamePrefix" label={t('devices:batch.namePrefix')}>
              <Input maxLength={48} />
            </Form.Item>
          </>
        ) : null}
        {kind === 'unbind' || kind === 'delete' ? <Typography.Text type="secondary">{t(`devices:batch.warn.${kind}`)}</Typography.Text> : null}
      </Form>
    </Modal>
  );
}
