/** Real, decodable PNGs with a deterministic pattern derived from prompt and seed. */
import { PNG } from 'pngjs';
import { seededRandom } from '../shared/seededRandom';
import { hashOf } from './textgen';

interface Disc { x: number; y: number; r2: number; rgb: [number, number, number] }

export function renderPng(width: number, height: number, prompt: string, seed: number): Buffer {
  const rand = seededRandom(hashOf(`${seed}\n${prompt}`));
  const color = (): [number, number, number] => [Math.floor(rand() * 256), Math.floor(rand() * 256), Math.floor(rand() * 256)];
  const [from, to] = [color(), color()];
  const discs: Disc[] = Array.from({ length: 5 }, () => {
    const r = (0.05 + rand() * 0.2) * Math.min(width, height);
    return { x: rand() * width, y: rand() * height, r2: r * r, rgb: color() };
  });
  const stripe = 8 + Math.floor(rand() * 24);
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      let rgb: [number, number, number] = [
        from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t,
      ];
      for (const d of discs) {
        if ((x - d.x) ** 2 + (y - d.y) ** 2 <= d.r2) rgb = d.rgb;
      }
      const shade = Math.floor(x / stripe + y / stripe) % 2 === 0 ? 1 : 0.85;
      const i = (y * width + x) * 4;
      png.data[i] = Math.round(rgb[0] * shade);
      png.data[i + 1] = Math.round(rgb[1] * shade);
      png.data[i + 2] = Math.round(rgb[2] * shade);
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
