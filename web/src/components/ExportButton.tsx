// Exports a list as a spreadsheet the server writes (POST /api/export/...) with the list's
// filters. The file is read as it streams in, so the user sees how far it has come: the rows
// the server announced (X-Total-Rows) and the bytes received so far.
import { useRef, useState } from 'react';
import { App, Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { errorText } from '../i18n/errors';
import { useSession } from '../stores/session';
import { downloadBlob } from '../utils/download';

export interface ExportProgress {
  /** Rows the server announced, when it did. */
  total: number | null;
  /** Bytes of the file received so far. */
  bytes: number;
}

/** POSTs the filter to a server export and reads the answer chunk by chunk, reporting progress. */
export async function fetchExport(path: string, body: unknown, language: string, onProgress: (p: ExportProgress) => void): Promise<Blob> {
  const token = useSession.getState().token;
  const res = await fetch(`/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-language': language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) {
    const e = (await res.json().catch(() => ({}))) as { State?: number; Message?: string; Params?: Record<string, unknown>; Text?: string };
    throw new ApiError(e.State ?? res.status, e.Message ?? 'common.failed', e.Params, undefined, e.Text);
  }
  const header = res.headers.get('x-total-rows');
  const total = header === null ? null : Number(header);
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  if (!res.body) return new Blob([await res.arrayBuffer()], { type });
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  onProgress({ total, bytes });
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    bytes += value.byteLength;
    onProgress({ total, bytes });
  }
  return new Blob(chunks, { type });
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function ExportButton(props: {
  path: string;
  /** The filter, or a function that gives it when the button is pressed. */
  body: unknown;
  fileName: string;
  label?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const lastShown = useRef(0);
  const run = async () => {
    const key = `export-${props.path}`;
    setBusy(true);
    lastShown.current = 0;
    const show = (p: ExportProgress, force = false) => {
      // A repaint per chunk would slow the download: at most a few updates a second.
      const now = performance.now();
      if (!force && now - lastShown.current < 250) return;
      lastShown.current = now;
      const size = formatBytes(p.bytes);
      const content = p.total === null ? t('widgets:export.progress', { size }) : t('widgets:export.progressRows', { rows: p.total.toLocaleString(), size });
      message.open({ key, type: 'loading', content: <span data-testid="export-progress">{content}</span>, duration: 0 });
    };
    try {
      let total: number | null = null;
      const body: unknown = typeof props.body === 'function' ? (props.body as () => unknown)() : props.body;
      const blob = await fetchExport(props.path, body, i18n.language, (p) => {
        total = p.total;
        show(p, p.bytes === 0);
      });
      downloadBlob(blob, props.fileName);
      message.open({
        key,
        type: 'success',
        content: <span data-testid="export-done">{total === null ? t('widgets:export.done', { size: formatBytes(blob.size) }) : t('widgets:export.doneRows', { rows: (total as number).toLocaleString(), size: formatBytes(blob.size) })}</span>,
        duration: 4,
      });
    } catch (e) {
      message.open({ key, type: 'error', content: e instanceof ApiError ? errorText(t, e) : t('widgets:export.failed'), duration: 6 });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()} data-testid={props.testId}>
      {props.label ?? t('widgets:export.button')}
    </Button>
  );
}
