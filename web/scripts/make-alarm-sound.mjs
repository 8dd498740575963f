// Writes the console's alarm sound (web/public/sounds/alarm.wav): two short rising beeps and a
// pause, 16-bit mono PCM, made to loop while alarm notifications are open.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rate = 22050;
const seconds = 1.2;
const n = Math.floor(rate * seconds);
const pcm = Buffer.alloc(n * 2);
const beep = (t, start, len, f0, f1) => {
  if (t < start || t > start + len) return 0;
  const x = (t - start) / len;
  const env = Math.min(1, x * 20, (1 - x) * 20);
  const f = f0 + (f1 - f0) * x;
  return env * Math.sin(2 * Math.PI * f * (t - start)) * 0.6;
};
for (let i = 0; i < n; i++) {
  const t = i / rate;
  const v = beep(t, 0, 0.22, 880, 1320) + beep(t, 0.32, 0.22, 880, 1320);
  pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, v)) * 32767), i * 2);
}
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + pcm.length, 4);
header.write('WAVE', 8);
header.write('fmt ', 12);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20);
header.writeUInt16LE(1, 22);
header.writeUInt32LE(rate, 24);
header.writeUInt32LE(rate * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write('data', 36);
header.writeUInt32LE(pcm.length, 40);
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/sounds/alarm.wav');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, Buffer.concat([header, pcm]));
console.log(`wrote ${out}`);
