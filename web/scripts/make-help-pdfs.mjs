// Writes the help documents of public/help/ (help-zh-CN.pdf, help-zh-TW.pdf, help-en.pdf), the
// guides the console's "Download help" opens, from the text in help-content.mjs. The PDFs are
// committed; run this after changing the text: node web/scripts/make-help-pdfs.mjs
//
// The glyphs come from Noto Sans CJK (Debian's fonts-noto-cjk: apt-get install fonts-noto-cjk),
// simplified or traditional Chinese forms by language, and only the glyphs used are embedded, so a
// reader needs no Chinese font of its own.
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { HELP } from './help-content.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'help');
const FONT_DIR = process.env.NOTO_CJK_DIR ?? '/usr/share/fonts/opentype/noto';
const REGULAR = join(FONT_DIR, 'NotoSansCJK-Regular.ttc');
const BOLD = join(FONT_DIR, 'NotoSansCJK-Bold.ttc');
// The faces of the collections: simplified Chinese forms for zh-CN (and English), traditional for zh-TW.
const FACE = { 'zh-CN': 'sc', 'zh-TW': 'tc', en: 'sc' };

const PRIMARY = '#1d4ed8';
const TEXT = '#1f2937';
const MUTED = '#6b7280';
// A4 in points, 2 cm margins.
const MARGIN = 57;

async function write(locale, doc) {
  const face = FACE[locale];
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + 10, left: MARGIN, right: MARGIN },
    bufferPages: true,
    lang: locale,
    displayTitle: true,
    info: { Title: doc.title, Author: 'WearTrack', Subject: doc.subtitle, CreationDate: new Date('2026-11-01T00:00:00Z') },
  });
  const file = join(out, `help-${locale}.pdf`);
  const stream = createWriteStream(file);
  pdf.pipe(stream);
  pdf.registerFont('body', REGULAR, `NotoSansCJK${face}-Regular`);
  pdf.registerFont('bold', BOLD, `NotoSansCJK${face}-Bold`);
  const width = pdf.page.width - MARGIN * 2;
  const cjk = locale !== 'en';
  const size = cjk ? 10.5 : 10;
  const gap = cjk ? 3 : 2.5;

  // Title block.
  pdf.font('bold').fontSize(21).fillColor(PRIMARY).text(doc.title, { width });
  pdf.moveDown(0.3);
  pdf.font('body').fontSize(11).fillColor(MUTED).text(doc.subtitle, { width });
  pdf.moveDown(0.5);
  pdf.moveTo(MARGIN, pdf.y).lineTo(MARGIN + width, pdf.y).lineWidth(1).strokeColor(PRIMARY).stroke();
  pdf.moveDown(0.8);

  for (const section of doc.sections) {
    // A heading is never the last line of a page.
    if (pdf.y > pdf.page.height - MARGIN - 90) pdf.addPage();
    pdf.font('bold').fontSize(14).fillColor(PRIMARY).text(section.h, { width });
    pdf.moveDown(0.35);
    for (const block of section.blocks) {
      pdf.font('body').fontSize(size).fillColor(TEXT);
      if (Array.isArray(block)) {
        for (const item of block) {
          // The bullet goes on the page its text starts on.
          const needed = Math.min(pdf.heightOfString(item, { width: width - 14, lineGap: gap }), size * 3);
          if (pdf.y + needed > pdf.page.height - pdf.page.margins.bottom) pdf.addPage();
          const y = pdf.y;
          pdf.circle(MARGIN + 5, y + size * 0.62, 1.8).fill(PRIMARY);
          pdf.fillColor(TEXT).text(item, MARGIN + 14, y, { width: width - 14, lineGap: gap, align: 'left' });
          pdf.moveDown(0.3);
        }
        pdf.x = MARGIN;
      } else {
        pdf.text(block, MARGIN, pdf.y, { width, lineGap: gap, align: 'left' });
        pdf.moveDown(0.45);
      }
    }
    pdf.moveDown(0.5);
  }

  // Footer on every page: the guide's name and the page number.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Below the text area: without this, writing there would start a new page.
    pdf.page.margins.bottom = 0;
    const y = pdf.page.height - MARGIN + 18;
    pdf.font('body').fontSize(8.5).fillColor(MUTED);
    pdf.text(doc.footer, MARGIN, y, { width, align: 'left', lineBreak: false });
    pdf.text(`${i + 1} / ${range.count}`, MARGIN, y, { width, align: 'right', lineBreak: false });
  }
  pdf.end();
  await finished(stream);
  return { file, pages: range.count };
}

for (const f of [REGULAR, BOLD]) {
  if (!existsSync(f)) {
    console.error(`Missing ${f}: install Debian's fonts-noto-cjk (apt-get install fonts-noto-cjk) or set NOTO_CJK_DIR.`);
    process.exit(1);
  }
}
mkdirSync(out, { recursive: true });
for (const [locale, doc] of Object.entries(HELP)) {
  const { file, pages } = await write(locale, doc);
  console.log(`${file}: ${pages} pages`);
}
