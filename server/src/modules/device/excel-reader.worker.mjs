// Worker thread of the device import (see readSheetRows in excel.ts): unzips and reads the first
// worksheet of an .xlsx workbook, streaming, so the server's event loop never does this work and a
// sheet past the row cap is given up as soon as the cap is passed. Plain JavaScript, so that Node
// loads it as it is in every way the server runs (tsx, tests, a built image).
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * @param {{ base64: string; maxRows: number; maxColumns: number; maxCellLength: number }} task
 * @returns {Promise<{ status: 'ok'; rows: { row: number; cells: string[] }[] } | { status: 'noSheet' } | { status: 'tooManyRows' }>}
 *   rows: every non-empty row (the header row included), cells by column (index 0 is column A).
 */
export default async function readRows({ base64, maxRows, maxColumns, maxCellLength }) {
  const data = Buffer.from(base64.replace(/^data:[^,]*,/, ''), 'base64');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
  });
  for await (const sheet of reader) {
    const rows = [];
    let dataRows = 0;
    for await (const row of sheet) {
      const cells = [];
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        if (col <= maxColumns) cells[col - 1] = cell.text.slice(0, maxCellLength);
      });
      for (let i = 0; i < cells.length; i++) cells[i] ??= '';
      if (!cells.some((c) => c.trim() !== '')) continue;
      if (row.number > 1 && ++dataRows > maxRows) return { status: 'tooManyRows' };
      rows.push({ row: row.number, cells });
    }
    return { status: 'ok', rows };
  }
  return { status: 'noSheet' };
}
