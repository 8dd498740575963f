// Writes the small help documents of public/help/ (one per console language). Chinese text uses the
// standard Adobe CJK fonts (STSong-Light, MSung-Light) that PDF viewers supply, so nothing is embedded.
// Run: node web/scripts/make-help-pdfs.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'help');

const DOCS = {
  'zh-CN': {
    font: { base: 'STSong-Light', encoding: 'UniGB-UCS2-H', ordering: 'GB1', supplement: 2 },
    lines: [
      ['穿戴设备云平台 使用帮助', 20],
      ['1. 登录：输入账号和密码（至少 6 位字母或数字），可在右上角切换语言。', 11],
      ['2. 监控中心：在地图上查看设备的实时位置、状态和告警。', 11],
      ['3. 设备管理：绑定、解绑、添加、删除设备，批量操作和转移账户。', 11],
      ['4. 告警管理：查看并确认 SOS、健康异常和围栏告警，设置告警方式。', 11],
      ['5. 健康数据：心率、血压、体温、血氧、步数和睡眠。', 11],
      ['6. 标签栏：右键标签可刷新、关闭、关闭其他、关闭所有。', 11],
      ['7. 修改密码：6-30 位字母和数字，须含大写、小写字母和数字。', 11],
    ],
  },
  'zh-TW': {
    font: { base: 'MSung-Light', encoding: 'UniCNS-UCS2-H', ordering: 'CNS1', supplement: 3 },
    lines: [
      ['穿戴裝置雲平臺 使用幫助', 20],
      ['1. 登入：輸入帳號和密碼（至少 6 位字母或數字），可在右上角切換語言。', 11],
      ['2. 監控中心：在地圖上檢視裝置的即時位置、狀態和告警。', 11],
      ['3. 裝置管理：繫結、解綁、新增、刪除裝置，批次操作和轉移帳戶。', 11],
      ['4. 告警管理：檢視並確認 SOS、健康異常和圍欄告警，設定告警方式。', 11],
      ['5. 健康資料：心率、血壓、體溫、血氧、步數和睡眠。', 11],
      ['6. 標籤欄：右鍵標籤可重新整理、關閉、關閉其他、關閉所有。', 11],
      ['7. 修改密碼：6-30 位字母和數字，須含大寫、小寫字母和數字。', 11],
    ],
  },
  en: {
    font: null,
    lines: [
      ['Wearable Device Cloud Platform - Help', 20],
      ['1. Sign in with your account and password (at least 6 letters or digits); switch the language at the top right.', 10],
      ['2. Monitor: live positions, states and alarms of your devices on the map.', 10],
      ['3. Devices: bind, unbind, add and delete devices, batch operations, moves between accounts.', 10],
      ['4. Alarms: review and confirm SOS, abnormal health and fence alarms; choose how alarms ring.', 10],
      ['5. Health: heart rate, blood pressure, temperature, blood oxygen, steps and sleep.', 10],
      ['6. Tags: right-click a tag to Refresh, Close, Close Others or Close All.', 10],
      ['7. Change password: 6-30 letters and digits with an uppercase letter, a lowercase letter and a digit.', 10],
    ],
  },
};

function utf16Hex(text) {
  let hex = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp > 0xffff) throw new Error('BMP only');
    hex += cp.toString(16).padStart(4, '0').toUpperCase();
  }
  return `<${hex}>`;
}

const escape = (s) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function pdf({ font, lines }) {
  const objects = [];
  const add = (body) => objects.push(body) && objects.length;
  const catalog = add('');
  const pages = add('');
  const fontObj = font
    ? (() => {
        const descriptor = add(
          `<< /Type /FontDescriptor /FontName /${font.base} /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>`,
        );
        const cid = add(
          `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /${font.base} /CIDSystemInfo << /Registry (Adobe) /Ordering (${font.ordering}) /Supplement ${font.supplement} >> /FontDescriptor ${descriptor} 0 R /DW 1000 /W [1 95 500] >>`,
        );
        return add(`<< /Type /Font /Subtype /Type0 /BaseFont /${font.base}-${font.encoding} /Encoding /${font.encoding} /DescendantFonts [${cid} 0 R] >>`);
      })()
    : add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  let y = 780;
  const ops = lines
    .map(([text, size], i) => {
      const s = `BT /F1 ${size} Tf 56 ${y} Td ${font ? utf16Hex(text) : `(${escape(text)})`} Tj ET`;
      y -= i === 0 ? 40 : 24;
      return s;
    })
    .join('\n');
  const content = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
  const page = add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${fontObj} 0 R >> >> /Contents ${content} 0 R >>`);
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pages} 0 R >>`;
  objects[pages - 1] = `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`;

  let body = '%PDF-1.4\n%\xE2\xE3\xCF\xD3\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

mkdirSync(out, { recursive: true });
for (const [locale, doc] of Object.entries(DOCS)) {
  const file = join(out, `help-${locale}.pdf`);
  writeFileSync(file, pdf(doc));
  console.log(file);
}
