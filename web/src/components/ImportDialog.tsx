// Import from an Excel file: download the template, pick a file (read as base64 in the browser),
// send it, then show the row-by-row report of what was refused and why.
import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n/errors';
import { importColumnTitle } from '../i18n/texts';

export interface ImportRefusal {
  /** Row number in the sheet (1 is the header row). */
  row: number;
  /** What identifies the row to the user (the IMEI ...). */
  label: string;
  /** The sheet's column at fault, by its key (LoginName, IMEI ...): shown by its title. */
  column?: string;
  /** i18n key of the `messages` namespace and its parameters. */
  reason: string;
  params?: Record<string, unknown>;
}

export interface ImportReport {
  total: number;
  imported: number;
  refused: ImportRefusal[];
}

/** Reads a file as base64 without the data-URL prefix. */
export function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const s = String(reader.result ?? '');
      resolve(s.slice(s.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export function ImportDialog(props: {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  onTemplate: () => void | Promise<void>;
  onImport: (base64: string, fileName: string) => Promise<ImportReport>;
  /** Fields above the upload (the account to import into ...). */
  children?: ReactNode;
  hint?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);

  const close = () => {
    setFile(null);
    setReport(null);
    props.onClose();
  };

  const submit = async () => {
    if (!file) {
      message.warning(t('widgets:import.pickFile'));
      return;
    }
    setBusy(true);
    try {
      setReport(await props.onImport(await readAsBase64(file), file.name));
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={close}
      width={680}
      destroyOnHidden
      footer={
        report
          ? [
              <Button key="again" onClick={() => setReport(null)}>
                {t('widgets:import.again')}
              </Button>,
              <Button key="close" type="primary" onClick={close}>
                {t('common:close')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('common:cancel')}
              </Button>,
              <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} data-testid="import-submit">
                {t('widgets:import.submit')}
              </Button>,
            ]
      }
    >
      {report ? (
        <ImportReportView report={report} />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          {props.children}
          <Space>
            <Button icon={<DownloadOutlined />} onClick={() => void Promise.resolve().then(props.onTemplate).catch((e: unknown) => message.error(errorText(t, e)))}>
              {t('widgets:import.template')}
            </Button>
            {props.hint ? <Typography.Text type="secondary">{props.hint}</Typography.Text> : null}
          </Space>
          <XlsxPicker file={file} onChange={setFile} text={t('widgets:import.drop')} />
        </Space>
      )}
    </Modal>
  );
}

/** One .xlsx file picked by drop or click, kept in the browser until it is sent. */
export function XlsxPicker({ file, onChange, text }: { file: File | null; onChange: (f: File | null) => void; text: ReactNode }) {
  return (
    <Upload.Dragger
      accept=".xlsx"
      maxCount={1}
      beforeUpload={(f) => {
        onChange(f);
        return false;
      }}
      onRemove={() => onChange(null)}
      fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{text}</p>
    </Upload.Dragger>
  );
}

export function ImportReportView({ report }: { report: ImportReport }) {
  const { t } = useTranslation();
  return (
    <div data-testid="import-report">
      <Alert
        type={report.refused.length ? 'warning' : 'success'}
        showIcon
        style={{ marginBottom: 12 }}
        title={t('widgets:import.summary', { total: report.total, imported: report.imported, refused: new Set(report.refused.map((r) => r.row)).size })}
      />
      {report.refused.length ? (
        <Table<ImportRefusal>
          size="small"
          rowKey={(r) => `${r.row}:${r.label}`}
          pagination={report.refused.length > 10 ? { pageSize: 10 } : false}
          dataSource={report.refused}
          columns={[
            { key: 'row', title: t('widgets:import.row'), dataIndex: 'row', width: 80 },
            { key: 'label', title: t('widgets:import.item'), dataIndex: 'label', width: 180 },
            { key: 'column', title: t('widgets:import.column'), render: (_, r) => (r.column ? importColumnTitle(t, r.column) : ''), width: 120 },
            {
              key: 'reason',
              title: t('widgets:import.reason'),
              render: (_, r) => t(`messages:${r.reason}`, { ...r.params, ...(r.column ? { column: importColumnTitle(t, r.column) } : {}) }),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
