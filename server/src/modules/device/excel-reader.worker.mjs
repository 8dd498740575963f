// Worker thread of the device import (see readSheetRows in excel.ts): unzips and reads the first
// worksheet of an .xlsx workbook, streaming, so the server's event loop never does this work and a
// sheet past the row cap is given up as soon as the cap is passed. Plain JavaScript, so that Node
// loads it as it is in every way the server runs (tsx, tests, a built image).
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * @typedef {{ base64: string; maxRows: number; maxColumns: number; maxCellLength: number }} Task
 * @typedef {{ status: 'ok'; rows: { row: number; cells: string[] }[] } | { status: 'noSheet' } | { status: 'tooManyRows' }} SheetRows
 */

/**
 * @param {Task} task
 * @returns {Promise<SheetRows>}
 *   rows: every non-empty row (the header row included), cells by column (index 0 is column A).
 */
export default async function readRows(task) {
  const data = Buffer.from(task.base64.replace(/^data:[^,]*,/, ''), 'base64');
  try {
    const streamed = await streamRows(data, task);
    if (streamed.status !== 'noSheet') return streamed;
  } catch {
    // Read again below.
  }
  // ExcelJS's streaming reader sometimes reaches a worksheet before the workbook part that names it
  // (exceljs issue 3064: a race, more frequent on a busy machine), then throws or ends without a
  // sheet. What it fails on is read whole, within the thread's memory limit; what is not a workbook
  // fails here too.
  return loadRows(data, task);
}

/** The first worksheet, read as a stream. */
export async function streamRows(data, { maxRows, maxColumns, maxCellLength }) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
  });
  for await (const sheet of reader) {
    const rows = new RowCollector(maxRows, maxColumns, maxCellLength);
    for await (const row of sheet) if (!rows.add(row)) return { status: 'tooManyRows' };
    return { status: 'ok', rows: rows.rows };
  }
  return { status: 'noSheet' };
}

/** The first worksheet, read from the whole workbook. */
export async function loadRows(data, { maxRows, maxColumns, maxCellLength }) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data);
  const sheet = wb.worksheets[0];
  if (!sheet) return { status: 'noSheet' };
  const rows = new RowCollector(maxRows, maxColumns, maxCellLength);
  // The rows the file holds, not every number up to the last one (one cell at row 1 000 000 would
  // make as many empty rows).
  let full = false;
  sheet.eachRow({ includeEmpty: false }, (row) => {
    full ||= !rows.add(row);
  });
  return full ? { status: 'tooManyRows' } : { status: 'ok', rows: rows.rows };
}

/** Keeps the non-empty rows, their cells cut to the limits; refuses the row past the cap. */
class RowCollector {
  constructor(maxRows, maxColumns, maxCellLength) {
    Object.assign(this, { maxRows, maxColumns, maxCellLength, dataRows: 0, rows: [] });
  }

  /** @returns {boolean} false once the sheet has more data rows than the cap. */
  add(row) {
    const cells = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      if (col <= this.maxColumns) cells[col - 1] = cell.text.slice(0, this.maxCellLength);
    });
    for (let i = 0; i < cells.length; i++) cells[i] ??= '';
    if (!cells.some((c) => c.trim() !== '')) return true;
    if (row.number > 1 && ++this.dataRows > this.maxRows) return false;
    this.rows.push({ row: row.number, cells });
    return true;
  }
}
