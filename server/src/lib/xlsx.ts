// Plain-row spreadsheets (data exports, import templates in tests) written with ExcelJS, the one
// spreadsheet library of the server.
import ExcelJS from 'exceljs';

export type Cell = string | number | Date | null | undefined;
export interface Sheet {
  name: string;
  rows: Cell[][];
  /** Column widths in characters. */
  widths?: number[];
}

export async function writeXlsx(sheets: Sheet[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(sheet.name);
    sheet.widths?.forEach((w, i) => (ws.getColumn(i + 1).width = w));
    ws.addRows(sheet.rows.map((r) => r.map((c) => c ?? null)));
    if (sheet.rows.length > 0) ws.getRow(1).font = { bold: true };
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
