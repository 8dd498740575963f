// Send a command to one device: only the commands its model supports are offered; the form is
// checked with the contract's rules (the server checks again) and the command's progress
// (queued, sent, answered) is followed until the device answers.
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Empty, Form, Modal, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { type CommandCode } from '@wt/contract';
import { shownTime } from '../../../session/time';
import { call } from '../../../api/client';
import { errorText } from '../../../i18n/errors';
import { commandName } from '../../../i18n/texts';
import { COMMAND_GROUPS, NO_PARAMS, checkCommand, commandStatus, initialValues, offeredCommands, type FormFieldError } from '../commandForms';
import { DEVICE_KEYS, type DeviceItem } from '../queries';
import { CommandFields } from './CommandFields';

const STATUS_COLOR = { queued: 'default', sent: 'processing', answered: 'success', failed: 'error' } as const;

/** Why a command failed, in the console's language: the server stores a reason's key (noReply, sendFailed). */
function failureText(t: TFunction, error: string): string {
  return t(`commands:failure.${error}`, { defaultValue: t('commands:failure.sendFailed') });
}

export function CommandStatusTag({ status, error = '' }: { status: string; error?: string }) {
  const { t } = useTranslation();
  const s = commandStatus(status);
  const tag = (
    <Tag color={STATUS_COLOR[s]} data-testid="command-status" data-status={s}>
      {t(`commands:status.${s}`)}
    </Tag>
  );
  return s === 'failed' && error ? <Tooltip title={failureText(t, error)}>{tag}</Tooltip> : tag;
}

/** The device's recent commands, refreshed while any is still on its way. */
export function CommandHistory({ imei, pageSize = 5 }: { imei: string; pageSize?: number }) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: DEVICE_KEYS.commands(imei),
    queryFn: () => call('/Command/CommandList', { Imei: imei, PageNo: 1, PageCount: pageSize }),
    refetchInterval: (q) => (q.state.data?.Items.some((c) => ['queued', 'sent'].includes(commandStatus(c.Status))) ? 2000 : false),
  });
  return (
    <Table
      size="small"
      rowKey="Id"
      loading={list.isLoading}
      pagination={false}
      dataSource={list.data?.Items ?? []}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('commands:noHistory')} /> }}
      columns={[
        { key: 'code', title: t('commands:command'), render: (_, c) => commandName(t, c.Code, c.Name) },
        { key: 'created', title: t('commands:sentAt'), render: (_, c) => shownTime(c.CreatedAt), width: 170 },
        { key: 'status', title: t('commands:statusTitle'), render: (_, c) => <CommandStatusTag status={c.Status} error={c.Error} />, width: 100 },
        { key: 'reply', title: t('commands:reply'), render: (_, c) => <Typography.Text ellipsis={{ tooltip: c.Reply ?? '' }}>{c.Reply ?? ''}</Typography.Text> },
      ]}
    />
  );
}

export function CommandDialog({ device, onClose }: { device: Pick<DeviceItem, 'Imei' | 'Name' | 'Commands'> | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const offered = useMemo(() => offeredCommands(device?.Commands), [device]);
  const [code, setCode] = useState<CommandCode | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setCode(offered[0] ?? null);
  }, [offered]);
  useEffect(() => {
    form.resetFields();
    if (code) form.setFieldsValue(initialValues(code));
  }, [code, form]);

  const showErrors = (errors: FormFieldError[]) => {
    form.setFields(errors.map((e) => ({ name: e.name, errors: [t(`messages:${e.key}`, e.params)] })));
  };

  const submit = async () => {
    if (!device || !code) return;
    // Errors of the last attempt go before this one is checked.
    form.setFields(form.getFieldsError().map((f) => ({ name: f.name, errors: [] })));
    const r = checkCommand(code, form.getFieldsValue(true) as Record<string, unknown>);
    if (!r.ok) {
      showErrors(r.errors);
      return;
    }
    setBusy(true);
    try {
      const sent = await call('/Command/SendCommand', { Imei: device.Imei, Code: code, Params: r.params });
      message.success(t(`commands:status.${commandStatus(sent.Item.Status)}`));
      await qc.invalidateQueries({ queryKey: DEVICE_KEYS.commands(device.Imei) });
    } catch (e) {
      const fields = (e as { fields?: { Field: string; Message: string; Params?: Record<string, unknown> }[] }).fields;
      if (fields?.length) showErrors(fields.map((f) => ({ name: f.Field.replace(/^Params\./, '').split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), key: f.Message, params: f.Params ?? {} })));
      else message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const groups = COMMAND_GROUPS.map((g) => ({
    label: t(`commands:groups.${g.key}`),
    options: g.codes.filter((c) => offered.includes(c)).map((c) => ({ value: c, label: commandName(t, c) })),
  })).filter((g) => g.options.length);

  return (
    <Modal
      open={!!device}
      title={t('commands:title', { name: device?.Name || device?.Imei || '' })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('commands:send')}
      okButtonProps={{ disabled: !code, id: 'cmd-send' }}
      confirmLoading={busy}
      width={720}
      forceRender
    >
      {offered.length === 0 ? (
        <Alert type="info" showIcon title={t('commands:noneSupported')} />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Select style={{ width: 320 }} value={code ?? undefined} onChange={setCode} options={groups} data-testid="cmd-code" />
          {code && NO_PARAMS.has(code) ? <Alert type="warning" showIcon title={t('commands:confirmNoParams', { command: commandName(t, code) })} /> : null}
          <Form form={form} layout="vertical" data-testid="cmd-form">
            {code ? <CommandFields code={code} /> : null}
          </Form>
        </Space>
      )}
      {device ? (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('commands:history')}
          </Typography.Title>
          <CommandHistory imei={device.Imei} />
        </>
      ) : null}
    </Modal>
  );
}
