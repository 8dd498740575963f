// Authoring aid: converts simplified Chinese text to traditional (Taiwan) with opencc-js.
// `node scripts/zh-tw.mjs "文本"` prints one string; `--json file.json` converts every string value.
import * as OpenCC from 'opencc-js';
import { readFileSync } from 'node:fs';

const opencc = OpenCC.Converter({ from: 'cn', to: 'twp' });
// One term per concept in zh-TW: OpenCC writes 賬 for 账 (账户 → 賬戶); Taiwan writes 帳戶, 帳號.
const convert = (s) => opencc(s).replaceAll('賬', '帳');
const walk = (v) =>
  typeof v === 'string' ? convert(v) : Array.isArray(v) ? v.map(walk) : v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    : v;

const [flag, arg] = process.argv.slice(2);
if (flag === '--json') console.log(JSON.stringify(walk(JSON.parse(readFileSync(arg, 'utf8'))), null, 2));
else console.log(convert(process.argv.slice(2).join(' ')));
