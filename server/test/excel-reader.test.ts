// The workbook reader of imports: the streaming read and the whole read it falls back on (when
// ExcelJS's streaming reader loses the race between a worksheet and the workbook part) give the
// same rows, the same refusal past the row cap, and both refuse what is not a workbook.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module of the worker thread, without type declarations
import readRows, { loadRows, streamRows } from '../src/modules/device/excel-reader.worker.mjs';

async function workbook(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  rows.forEach((r, i) => ws.getRow(i + 1).values = r);
  wb.addWorksheet('second').addRow(['not read']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const limits = { maxRows: 3, maxColumns: 3, maxCellLength: 5 };

describe('workbook reader', () => {
  it('reads the same rows streaming and whole: blank rows skipped, cells cut to the limits', async () => {
    const data = await workbook([['IMEI', 'Name', null, 'x'], [], ['865', 'a very long name'], [null, null, 7]]);
    const expected = {
      status: 'ok',
      rows: [
        { row: 1, cells: ['IMEI', 'Name'] },
        { row: 3, cells: ['865', 'a ver'] },
        { row: 4, cells: ['', '', '7'] },
      ],
    };
    expect(await streamRows(data, limits)).toEqual(expected);
    expect(await loadRows(data, limits)).toEqual(expected);
    expect(await readRows({ base64: data.toString('base64'), ...limits })).toEqual(expected);
  });

  it('refuses a sheet past the row cap either way', async () => {
    const data = await workbook([['IMEI'], ['1'], ['2'], ['3'], ['4']]);
    expect(await streamRows(data, limits)).toEqual({ status: 'tooManyRows' });
    expect(await loadRows(data, limits)).toEqual({ status: 'tooManyRows' });
  });

  it('keeps the sheet row numbers of a far cell when read whole', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('s');
    ws.getRow(1).values = ['IMEI'];
    ws.getRow(1_000_000).values = ['865'];
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await loadRows(data, limits)).toEqual({ status: 'ok', rows: [{ row: 1, cells: ['IMEI'] }, { row: 1_000_000, cells: ['865'] }] });
  });

  it('refuses what is not a workbook', async () => {
    await expect(readRows({ base64: Buffer.from('nope').toString('base64'), ...limits })).rejects.toThrow();
    await expect(loadRows(Buffer.from('PK\u0003\u0004 garbage'), limits)).rejects.toThrow();
  });
});
