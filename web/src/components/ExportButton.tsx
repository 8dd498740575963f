// Exports a list to a CSV file Excel opens directly (UTF-8 with a byte-order mark), after fetching
// every page of it.
import { useState } from 'react';
import { App, Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n/errors';
import { downloadBlob } from '../utils/download';

export interface ExportColumn<T> {
  title: string;
  value: (row: T) => string | number | null | undefined;
}

function cell(v: string | number | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text of the rows; long digit strings (IMEI, ICCID) are kept as text for Excel. */
export function toCsv<T>(rows: T[], columns: ExportColumn<T>[]): string {
  const line = (vals: (string | number | null | undefined)[]) => vals.map(cell).join(',');
  const body = rows.map((r) =>
    line(
      columns.map((c) => {
        const v = c.value(r);
        return typeof v === 'string' && /^\d{12,}$/.test(v) ? `\t${v}` : v;
      }),
    ),
  );
  return [line(columns.map((c) => c.title)), ...body].join('\r\n');
}

export function ExportButton<T>(props: { fetchAll: () => Promise<T[]>; columns: ExportColumn<T>[]; fileName: string; label?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const rows = await props.fetchAll();
      downloadBlob(new Blob(['\uFEFF' + toCsv(rows, props.columns)], { type: 'text/csv;charset=utf-8' }), props.fileName);
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()}>
      {props.label ?? t('widgets:export.button')}
    </Button>
  );
}
