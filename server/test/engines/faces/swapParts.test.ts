/** The pure pieces of the swap, without the models: warp, colour transfer, feathering, tiles, shrink. */
import { describe, expect, it } from 'vitest';
import { colorTransfer } from '../../../src/engines/faces/colorTransfer.js';
import { downscale } from '../../../src/engines/faces/downscale.js';
import { featherMask } from '../../../src/engines/faces/featherMask.js';
import { tilesFor, tilesNeeded } from '../../../src/engines/faces/tiles.js';
import { warpTriangles } from '../../../src/engines/faces/warpTriangles.js';
import type { RgbImage } from '../../../src/engines/faces/rgbImage.js';

/** A 64x64 picture whose pixel (x, y) is (4x, 4y, 128). */
function gradient(): RgbImage {
  const data = new Uint8Array(64 * 64 * 3);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) data.set([x * 4, y * 4, 128], (y * 64 + x) * 3);
  return { data, width: 64, height: 64 };
}

// Two triangles covering the square (8,8)-(56,56).
const square = new Float32Array([8, 8, 56, 8, 56, 56, 8, 56]);
const twoTriangles = [0, 1, 2, 0, 2, 3];

describe('warpTriangles', () => {
  it('maps a picture onto itself unchanged inside the mesh and covers exactly the mesh', () => {
    const image = gradient();
    const patch = warpTriangles(image, square, square, twoTriangles, image)!;
    expect(patch).toMatchObject({ left: 8, top: 8 });
    const px = (x: number, y: number) =>
      Array.from(
        patch.rgb.slice(((y - 8) * patch.width + x - 8) * 3, ((y - 8) * patch.width + x - 8) * 3 + 3),
      );
    expect(px(30, 20).map(Math.round)).toEqual([120, 80, 128]);
    expect(patch.coverage[(40 - 8) * patch.width + (20 - 8)]).toBe(1);
    expect(patch.width).toBeLessThanOrEqual(50);
  });

  it('scales the source into a smaller target triangle pair (source corners land on target corners)', () => {
    const image = gradient();
    const small = new Float32Array([20, 20, 40, 20, 40, 40, 20, 40]);
    const patch = warpTriangles(image, square, small, twoTriangles, image)!;
    expect(patch).toMatchObject({ left: 20, top: 20 });
    // Target (20,20) samples source (8,8) = (32, 32, 128); target (40,40) samples source (56,56).
    const at = (x: number, y: number) => Math.round(patch.rgb[((y - 20) * patch.width + x - 20) * 3]!);
    expect(at(20, 20)).toBe(32);
    expect(at(40, 40)).toBe(224);
    expect(at(30, 30)).toBe(128);
  });
});

describe('colorTransfer', () => {
  it('moves the warped face to the target face mean and spread inside the mask', () => {
    const target: RgbImage = { data: new Uint8Array(10 * 10 * 3).fill(200), width: 10, height: 10 };
    const rgb = new Float32Array(10 * 10 * 3);
    for (let i = 0; i < 100; i++) rgb.set([40 + (i % 10), 60, 80], i * 3);
    const patch = { left: 0, top: 0, width: 10, height: 10, rgb, coverage: new Uint8Array(100).fill(1) };
    colorTransfer(patch, target);
    let mean = 0;
    for (let i = 0; i < rgb.length; i++) mean += rgb[i]!;
    mean /= rgb.length;
    expect(mean).toBeGreaterThan(190);
    expect(mean).toBeLessThan(210);
  });
});

describe('featherMask', () => {
  it('is 0 outside and at the edge of the covered area and 1 well inside it', () => {
    const w = 40;
    const coverage = new Uint8Array(w * w);
    for (let y = 10; y < 30; y++) for (let x = 10; x < 30; x++) coverage[y * w + x] = 1;
    const alpha = featherMask(coverage, w, w, 3);
    expect(alpha[5 * w + 5]).toBe(0);
    expect(alpha[10 * w + 20]).toBeLessThan(0.3);
    expect(alpha[20 * w + 20]).toBe(1);
    expect(alpha[20 * w + 11]).toBeGreaterThan(alpha[20 * w + 10]!);
  });
});

describe('tilesFor', () => {
  it('covers a wide picture with overlapping squares and leaves a small one alone', () => {
    const tiles = tilesFor(900, 380);
    expect(tiles.length).toBeGreaterThanOrEqual(2);
    expect(tiles[0]).toMatchObject({ x: 0, y: 0, width: 380, height: 380 });
    expect(tiles.at(-1)!.x + tiles.at(-1)!.width).toBe(900);
    for (let i = 1; i < tiles.length; i++) expect(tiles[i]!.x).toBeLessThan(tiles[i - 1]!.x + 380);
  });

  it('tiles small pictures too (the detector enlarges each tile to 256 px), but not tiny ones', () => {
    // The 512x217 group composite: three 217 px squares, first and last flush with the edges.
    expect(tilesFor(512, 217)).toEqual([
      { x: 0, y: 0, width: 217, height: 217 },
      { x: 148, y: 0, width: 217, height: 217 },
      { x: 295, y: 0, width: 217, height: 217 },
    ]);
    expect(tilesFor(200, 200)).toHaveLength(4);
    expect(tilesFor(200, 200)[0]).toMatchObject({ width: 120, height: 120 });
    expect(tilesFor(100, 100)).toEqual([]);
  });

  it('tiles every picture of its size, whatever detection shrank it from', () => {
    // A 1 MP portrait (925x1084) is shrunk to 462x542: whether it is tiled is tilesNeeded's decision.
    expect(tilesFor(462, 542)).toHaveLength(4);
  });
});

describe('tilesNeeded', () => {
  const box = (x: number, y: number, width: number, height: number) => ({ box: { x, y, width, height } });

  it('tiles a picture with no face, or with only faces small relative to it', () => {
    expect(tilesNeeded([], 462, 542)).toBe(true);
    // The group picture at 898x380: Grace Hopper's face is 0.22 of the width (and 0.53 of the height).
    expect(tilesNeeded([box(320, 50, 200, 200), box(80, 70, 113, 113)], 898, 380)).toBe(true);
    // The cameraman's portrait (0.20 of the picture) and the astronaut's half-length one (0.28).
    expect(tilesNeeded([box(150, 120, 100, 100)], 512, 512)).toBe(true);
    expect(tilesNeeded([box(150, 30, 145, 145)], 512, 512)).toBe(true);
  });

  it('leaves alone a picture that one face fills, at any size (a portrait, a selfie)', () => {
    // Grace Hopper's portrait: 0.47-0.55 of the picture, as the detector sees it shrunk or not.
    expect(tilesNeeded([box(120, 110, 250, 250)], 462, 542)).toBe(false);
    expect(tilesNeeded([box(70, 60, 150, 150)], 273, 320)).toBe(false);
    // The rule is per axis: 0.4 of the height but 0.2 of a wide picture's width does not fill it.
    expect(tilesNeeded([box(0, 0, 160, 160)], 800, 400)).toBe(true);
    expect(tilesNeeded([box(0, 0, 160, 160)], 400, 400)).toBe(false);
    // One small face besides does not change it.
    expect(tilesNeeded([box(70, 60, 150, 150), box(0, 0, 20, 20)], 273, 320)).toBe(false);
  });
});

describe('downscale', () => {
  it('averages blocks', () => {
    const image = gradient();
    const half = downscale(image, 2);
    expect([half.width, half.height]).toEqual([32, 32]);
    // Output (1, 2) averages source x 2..3 (8 and 12 -> 10) and y 4..5 (16 and 20 -> 18).
    expect(Array.from(half.data.slice((2 * 32 + 1) * 3, (2 * 32 + 1) * 3 + 3))).toEqual([10, 18, 128]);
    expect(downscale(image, 1)).toBe(image);
  });
});
