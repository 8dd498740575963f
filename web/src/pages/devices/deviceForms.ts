// Form logic of the device dialogs, kept apart from the components so it is tested on its own:
// IMEI/ICCID lists typed or pasted, the SPEC §5 count rule, and the reports of batch calls and of
// the Excel import.
import { IMEI, imeiIccidCountsMatch, type CallResponse } from '@wt/contract';
import type { ImportReport } from '../../components/ImportDialog';
import type { FieldIssue } from '../../forms/validate';

/** One entry per line, comma, semicolon or whitespace; blanks dropped, order kept. */
export function parseList(text: string | undefined | null): string[] {
  return (text ?? '')
    .split(/[\s,;，；]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The issues of an IMEI list with an optional ICCID list: IMEIs required, each 15 digits, none
 * twice; when ICCIDs are entered there are as many as IMEIs.
 */
export function checkImeiIccid(imeiText: string | undefined, iccidText?: string): FieldIssue[] {
  const imeis = parseList(imeiText);
  const iccids = parseList(iccidText);
  const issues: FieldIssue[] = [];
  if (!imeis.length) issues.push({ field: 'imeis', key: 'validation.imeiRequired', params: {} });
  const bad = imeis.find((i) => !IMEI.test(i));
  if (bad) issues.push({ field: 'imeis', key: 'validation.imeiInvalid', params: { imei: bad } });
  const seen = new Set<string>();
  const dup = imeis.find((i) => (seen.has(i) ? true : (seen.add(i), false)));
  if (dup && !bad) issues.push({ field: 'imeis', key: 'device.imeiDuplicate', params: { imei: dup } });
  if (imeis.length && !imeiIccidCountsMatch(imeis, iccids)) {
    issues.push({ field: 'iccids', key: 'validation.imeiIccidCount', params: { imeis: imeis.length, iccids: iccids.length } });
  }
  return issues;
}

export interface BatchFailure {
  imei: string;
  key: string;
  params: Record<string, unknown>;
}

export interface BatchOutcome {
  succeeded: number;
  failed: BatchFailure[];
}

/** A batch answer (Succeeded, Failed per IMEI) as the console shows it. */
export function batchOutcome(r: { Succeeded: number; Failed: { Imei: string; Message: string; Params?: Record<string, unknown> }[] }): BatchOutcome {
  return { succeeded: r.Succeeded, failed: r.Failed.map((f) => ({ imei: f.Imei, key: f.Message, params: f.Params ?? {} })) };
}

type ImportAnswer = CallResponse<'/Device/batchDevicesCreateUserByExcel'>;

/**
 * The Excel import answer as a report: every refused row (sorted by row, the sheet's column named
 * when the server gave it) and how many devices went in. Any refusal means nothing was imported.
 */
export function importReport(r: ImportAnswer): ImportReport {
  const refused = [...r.Failed]
    .sort((a, b) => a.Row - b.Row)
    .map((f) => ({
      row: f.Row,
      label: f.Imei || '—',
      ...(f.Column ? { column: f.Column } : {}),
      reason: f.Message,
      params: { ...(f.Column ? { column: f.Column } : {}), imei: f.Imei, ...(f.Params ?? {}) },
    }));
  return { total: r.Rows, imported: r.Imported ? r.Moved + r.Created : 0, refused };
}
