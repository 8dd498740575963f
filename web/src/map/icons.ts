// Device icons drawn at run time (no sprite file to fetch): one per role shape and colour, plus
// grey for offline devices. SPEC §3: colours blue, orange, red, green, yellow; shapes circle,
// star, square, rhombus.
export const ROLE_COLORS: Record<string, string> = {
  blue: '#1677ff',
  orange: '#fa8c16',
  red: '#f5222d',
  green: '#52c41a',
  yellow: '#fadb14',
  grey: '#8c8c8c',
};
export const ROLE_SHAPES = ['circle', 'star', 'square', 'rhombus'] as const;

export function colorKey(c: string | null | undefined): string {
  const k = (c ?? '').toLowerCase();
  if (k in ROLE_COLORS) return k;
  // A hex colour of the role: the nearest named one.
  const hex = /^#?([0-9a-f]{6})$/.exec(k)?.[1];
  if (!hex) return 'blue';
  const rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let best = 'blue', dist = Infinity;
  for (const [name, v] of Object.entries(ROLE_COLORS)) {
    if (name === 'grey') continue;
    const c2 = [1, 3, 5].map((i) => parseInt(v.slice(i, i + 2), 16));
    const d = c2.reduce((s, x, i) => s + (x - rgb[i]!) ** 2, 0);
    if (d < dist) {
      dist = d;
      best = name;
    }
  }
  return best;
}

export function shapeKey(s: string | null | undefined): string {
  return (ROLE_SHAPES as readonly string[]).includes(s ?? '') ? s! : 'circle';
}

function draw(shape: string, fill: string): ImageData {
  const size = ICON_PX;
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const g = c.getContext('2d')!;
  g.fillStyle = fill;
  g.strokeStyle = '#ffffff';
  g.lineWidth = 4;
  g.beginPath();
  const m = size / 2;
  if (shape === 'square') g.rect(8, 8, 24, 24);
  else if (shape === 'rhombus') {
    g.moveTo(m, 4);
    g.lineTo(size - 4, m);
    g.lineTo(m, size - 4);
    g.lineTo(4, m);
    g.closePath();
  } else if (shape === 'star') {
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 7.5 : 17;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      g.lineTo(m + r * Math.cos(a), m + r * Math.sin(a));
    }
    g.closePath();
  } else g.arc(m, m, 13, 0, Math.PI * 2);
  g.stroke();
  g.fill();
  return g.getImageData(0, 0, size, size);
}

/** Size of one icon in the atlas (device pixels at pixel ratio 2: drawn at 20 CSS px). */
export const ICON_PX = 40;

/** Every icon in one canvas: a row per shape (ROLE_SHAPES order), a column per colour (ROLE_COLORS order). */
export function iconAtlas(): HTMLCanvasElement {
  const colors = Object.values(ROLE_COLORS);
  const c = document.createElement('canvas');
  c.width = ICON_PX * colors.length;
  c.height = ICON_PX * ROLE_SHAPES.length;
  const g = c.getContext('2d')!;
  ROLE_SHAPES.forEach((shape, row) => colors.forEach((fill, col) => g.putImageData(draw(shape, fill), col * ICON_PX, row * ICON_PX)));
  return c;
}
