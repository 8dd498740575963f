// Create sub-accounts with their devices from an Excel sheet: the server's template, the file read
// in the browser, and the row-by-row report of what was refused (then nothing is imported).
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { device } from '@wt/contract';
import { call } from '../../../api/client';
import { ImportDialog } from '../../../components/ImportDialog';
import { currentLocale } from '../../../i18n';
import { importColumnTitle } from '../../../i18n/texts';
import { downloadBlob } from '../../../utils/download';
import { useSession } from '../../../stores/session';
import { importReport } from '../deviceForms';
import { invalidateDevices } from '../queries';

/** The template the server builds (header row of IMPORT_COLUMNS and an example row). */
export const TEMPLATE_URL = '/api/device/import-template.xlsx';

export function ImportDevicesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (
    <ImportDialog
      open={open}
      title={t('devices:import.title')}
      onClose={onClose}
      hint={t('devices:import.columns', { columns: device.IMPORT_COLUMNS.map((c) => importColumnTitle(t, c)).join(t('devices:import.separator')) })}
      onTemplate={async () => {
        // Fetched with the session's token (a plain link would go without it).
        const token = useSession.getState().token;
        // Its column titles are in the console's language.
        const res = await fetch(TEMPLATE_URL, { headers: { 'X-Language': currentLocale(), ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
        if (!res.ok) throw new Error(`template ${res.status}`);
        downloadBlob(await res.blob(), 'devices-import-template.xlsx');
      }}
      onImport={async (Content, FileName) => {
        const r = await call('/Device/batchDevicesCreateUserByExcel', { Content, FileName });
        if (r.Imported) await invalidateDevices(qc);
        return importReport(r);
      }}
    />
  );
}
