// A stock-in batch: model, version, store, owner, date, and the IMEIs (with as many ICCIDs) pasted
// or in an .xlsx workbook. "Check only" reports what would be refused without storing; after a
// stock-in the refused rows are listed with their reasons (the others are in stock).
import { useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Segmented, Select, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { XlsxPicker, readAsBase64 } from '../../components/ImportDialog';
import { errorText } from '../../i18n/errors';
import { putIssues, serverIssues, invalidateAll } from '../../patterns';
import { INVENTORY_KEY, RefusedTable, splitList, useDictOptions, type RefusedRow } from './shared';

interface BatchForm {
  ModelId?: number;
  VersionId?: number;
  StoreId?: number;
  OwnerId?: number;
  StockInDate?: Dayjs;
  Remark?: string;
  ImeisText?: string;
  IccidsText?: string;
}

interface Report {
  dryRun: boolean;
  Rows: number;
  Succeeded: number;
  Failed: RefusedRow[];
}

export function BatchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<BatchForm>();
  const [mode, setMode] = useState<'paste' | 'excel'>('paste');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const models = useDictOptions('models');
  const versions = useDictOptions('versions');
  const stores = useDictOptions('stores');
  const owners = useDictOptions('owners');
  const imeis = splitList(Form.useWatch('ImeisText', form));
  const iccids = splitList(Form.useWatch('IccidsText', form));

  const close = () => {
    form.resetFields();
    setFile(null);
    setReport(null);
    onClose();
  };

  const send = async (dryRun: boolean) => {
    const v = form.getFieldsValue();
    if (mode === 'excel' && !file) {
      message.warning(t('widgets:import.pickFile'));
      return;
    }
    setBusy(true);
    try {
      const r = await call('/Inventory/BatchInsert', {
        ModelId: v.ModelId as number,
        VersionId: v.VersionId,
        StoreId: v.StoreId as number,
        OwnerId: v.OwnerId,
        StockInDate: (v.StockInDate ?? dayjs()).format('YYYY-MM-DD'),
        Remark: v.Remark ?? '',
        DryRun: dryRun,
        ...(mode === 'excel' ? { Content: await readAsBase64(file!) } : { Imeis: imeis, Iccids: iccids }),
      });
      setReport({ dryRun, Rows: r.Rows, Succeeded: r.Succeeded, Failed: r.Failed });
      if (!dryRun) await invalidateAll(qc, [INVENTORY_KEY]);
    } catch (e) {
      const issues = serverIssues(e, { Imeis: 'ImeisText', Iccids: 'IccidsText' });
      if (!issues.length || putIssues(form, issues, t).length) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('inventory:batchPage.add')}
      onCancel={close}
      width={720}
      destroyOnHidden
      footer={
        report && !report.dryRun
          ? [
              <Button key="close" type="primary" onClick={close} data-testid="batch-close">
                {t('common:close')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('common:cancel')}
              </Button>,
              <Button key="dry" loading={busy} onClick={() => void send(true)} data-testid="batch-dry-run">
                {t('inventory:batchPage.dryRun')}
              </Button>,
              <Button key="ok" type="primary" loading={busy} onClick={() => void send(false)} data-testid="batch-submit">
                {t('inventory:batchPage.submit')}
              </Button>,
            ]
      }
    >
      {report ? (
        <Alert
          data-testid="batch-report"
          style={{ marginBottom: 12 }}
          showIcon
          type={report.Failed.length ? 'warning' : 'success'}
          title={t(report.dryRun ? 'inventory:batchPage.checked' : 'inventory:batchPage.report', { rows: report.Rows, succeeded: report.Succeeded, failed: report.Failed.length })}
        />
      ) : null}
      {report?.Failed.length ? <RefusedTable rows={report.Failed} testId="batch-refused" /> : null}
      <Form form={form} layout="vertical" initialValues={{ StockInDate: dayjs() }} hidden={!!report && !report.dryRun} data-testid="batch-form">
        <Space wrap size="middle" style={{ width: '100%' }}>
          <Form.Item name="ModelId" label={t('inventory:model')} required style={{ minWidth: 200 }}>
            <Select options={models.options} loading={models.loading} data-testid="batch-model" />
          </Form.Item>
          <Form.Item name="StoreId" label={t('inventory:store')} required style={{ minWidth: 160 }}>
            <Select options={stores.options} loading={stores.loading} data-testid="batch-store" />
          </Form.Item>
          <Form.Item name="VersionId" label={t('inventory:version')} style={{ minWidth: 160 }}>
            <Select allowClear options={versions.options} loading={versions.loading} />
          </Form.Item>
          <Form.Item name="OwnerId" label={t('inventory:owner')} style={{ minWidth: 160 }}>
            <Select allowClear options={owners.options} loading={owners.loading} />
          </Form.Item>
          <Form.Item name="StockInDate" label={t('inventory:batchPage.date')} required>
            <DatePicker allowClear={false} />
          </Form.Item>
        </Space>
        <Segmented
          style={{ marginBottom: 12 }}
          value={mode}
          onChange={(v) => setMode(v as 'paste' | 'excel')}
          options={[
            { value: 'paste', label: t('inventory:batchPage.paste') },
            { value: 'excel', label: <span data-testid="batch-mode-excel">{t('inventory:batchPage.excel')}</span> },
          ]}
        />
        {mode === 'paste' ? (
          <>
            <Space style={{ width: '100%' }} align="start" size="middle">
              <Form.Item name="ImeisText" label={t('inventory:batchPage.imeis')} style={{ width: 320 }}>
                <Input.TextArea rows={8} placeholder={t('inventory:imeiListHint')} data-testid="batch-imeis" />
              </Form.Item>
              <Form.Item name="IccidsText" label={t('inventory:batchPage.iccids')} style={{ width: 320 }}>
                <Input.TextArea rows={8} placeholder={t('inventory:imeiListHint')} />
              </Form.Item>
            </Space>
            <Typography.Text type="secondary">{t('inventory:batchPage.counts', { imeis: imeis.length, iccids: iccids.length })}</Typography.Text>
          </>
        ) : (
          <>
            <Typography.Paragraph type="secondary">{t('inventory:batchPage.excelHint')}</Typography.Paragraph>
            <XlsxPicker file={file} onChange={setFile} text={t('inventory:batchPage.pick')} />
          </>
        )}
        <Form.Item name="Remark" label={t('inventory:remark')} style={{ marginTop: 12 }}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
