// Draws the XOS icon (the same shapes as media/xos.svg) and writes media/xos.png.
//   node scripts/lib/icon.mjs
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './paths.mjs';
import { encodePng } from './png.mjs';

const size = 128;
const samples = 4; // per axis, for anti-aliased edges
const top = [0x2f, 0x80, 0xed];
const bottom = [0x1b, 0x3f, 0x94];

// Signed distances (negative inside), in the 128-unit icon space.
function roundedSquare(x, y) {
  const half = 60, radius = 26;
  const qx = Math.abs(x - 64) - (half - radius);
  const qy = Math.abs(y - 64) - (half - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function capsule(x, y, ax, ay, bx, by, radius) {
  const abx = bx - ax, aby = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * abx + (y - ay) * aby) / (abx * abx + aby * aby)));
  return Math.hypot(x - (ax + t * abx), y - (ay + t * aby)) - radius;
}

function letterX(x, y) {
  return Math.min(capsule(x, y, 40, 38, 88, 90, 10), capsule(x, y, 88, 38, 40, 90, 10));
}

export function renderIcon() {
  const rgba = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let background = 0, mark = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = px + (sx + 0.5) / samples, y = py + (sy + 0.5) / samples;
          if (roundedSquare(x, y) <= 0) {
            background++;
            if (letterX(x, y) <= 0) mark++;
          }
        }
      }
      const total = samples * samples;
      const t = py / (size - 1);
      const white = background ? mark / background : 0;
      const offset = (py * size + px) * 4;
      for (let channel = 0; channel < 3; channel++) {
        const base = top[channel] + (bottom[channel] - top[channel]) * t;
        rgba[offset + channel] = Math.round(base + (255 - base) * white);
      }
      rgba[offset + 3] = Math.round((background / total) * 255);
    }
  }
  return encodePng(size, size, rgba);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(join(repoRoot, 'media', 'xos.png'), renderIcon());
  console.log('wrote media/xos.png');
}
