/**
 * The edits image-to-image understands, each a real pixel operation done with sharp, found in the
 * prompt by its words and applied in the order the prompt names them ("black and white, then mirror
 * it and make it brighter" = three edits). Unknown wording falls back to a gentle auto-enhance.
 */
import sharp from 'sharp';
import type { PromptWords } from './promptWords.js';

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  /** Always 3 (RGB): inputs are flattened onto white and alpha is dropped. */
  channels: 3;
}

export interface ImageEdit {
  name: string;
  /** Words or phrases that ask for this edit. */
  words: string[];
  apply(image: RawImage, prompt: PromptWords): Promise<RawImage>;
}

function load(image: RawImage): sharp.Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

export async function toRaw(pipeline: sharp.Sharp): Promise<RawImage> {
  const { data, info } = await pipeline
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels === 3) return { data, width: info.width, height: info.height, channels: 3 };
  // A grey result stays one channel in libvips: spread it back to r = g = b.
  const rgb = Buffer.alloc(info.width * info.height * 3);
  for (let p = 0; p < info.width * info.height; p++) {
    const v = data[p * info.channels] ?? 0;
    rgb[p * 3] = v;
    rgb[p * 3 + 1] = v;
    rgb[p * 3 + 2] = v;
  }
  return { data: rgb, width: info.width, height: info.height, channels: 3 };
}

const via = (f: (s: sharp.Sharp) => sharp.Sharp) => (image: RawImage) => toRaw(f(load(image)));

/** Quantises each channel to `levels` steps. */
function posterize(image: RawImage, levels: number): RawImage {
  const step = 255 / (levels - 1);
  const data = Buffer.alloc(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.round(Math.round((image.data[i] ?? 0) / step) * step);
  return { ...image, data };
}

async function cartoon(image: RawImage): Promise<RawImage> {
  const smooth = await toRaw(load(image).median(5));
  const flat = posterize(smooth, 6);
  // Edges from a Laplacian of the grey image, drawn as dark lines.
  const edges = await load(image)
    .greyscale()
    .convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1] })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const data = Buffer.alloc(flat.data.length);
  const n = image.width * image.height;
  for (let p = 0; p < n; p++) {
    const e = edges.data[p * edges.info.channels] ?? 0;
    const k = e > 40 ? 0.15 : 1;
    for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.round((flat.data[p * 3 + c] ?? 0) * k);
  }
  return { ...image, data };
}

function rotationFrom(prompt: PromptWords): number {
  const deg = prompt.numberBefore('°', 'deg', 'degree', 'degrees');
  if (deg !== undefined) return deg % 360;
  if (prompt.has('upside down', '180')) return 180;
  if (prompt.has('counterclockwise', 'anticlockwise', 'counter-clockwise', 'left')) return 270;
  return 90;
}

/** Every supported edit. Order here does not matter; the prompt's order does. */
export const IMAGE_EDITS: ImageEdit[] = [
  {
    name: 'black and white',
    words: ['black and white', 'b&w', 'grayscale', 'greyscale', 'monochrome', 'gray', 'grey', 'noir'],
    apply: via((s) => s.greyscale()),
  },
  {
    name: 'sepia',
    words: ['sepia', 'vintage', 'old photo', 'antique'],
    apply: via((s) =>
      s.recomb([
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
      ]),
    ),
  },
  {
    name: 'blur',
    words: ['blur', 'blurry', 'blurred', 'soft focus', 'defocus', 'dreamy'],
    apply: (image, p) => via((s) => s.blur(p.has('slight', 'slightly', 'little', 'bit') ? 2 : 6))(image),
  },
  {
    name: 'sharpen',
    words: ['sharpen', 'sharper', 'crisp', 'crisper', 'sharp'],
    apply: via((s) => s.sharpen({ sigma: 2, m1: 1, m2: 3 })),
  },
  {
    name: 'brighter',
    words: ['brighter', 'brighten', 'lighter', 'lighten', 'more light', 'overexpose'],
    apply: via((s) => s.modulate({ brightness: 1.3 })),
  },
  {
    name: 'darker',
    words: ['darker', 'darken', 'dim', 'dimmer', 'moody', 'underexpose'],
    apply: via((s) => s.modulate({ brightness: 0.7 })),
  },
  {
    name: 'more saturated',
    words: ['saturate', 'saturated', 'more saturated', 'vivid', 'vibrant', 'colorful', 'colourful', 'punchy'],
    apply: via((s) => s.modulate({ saturation: 1.7 })),
  },
  {
    name: 'less saturated',
    words: ['desaturate', 'desaturated', 'less saturated', 'muted', 'faded', 'washed out', 'pastel'],
    apply: via((s) => s.modulate({ saturation: 0.45 })),
  },
  {
    name: 'more contrast',
    words: ['contrast', 'more contrast', 'high contrast', 'dramatic'],
    apply: via((s) => s.linear(1.35, -0.35 * 128)),
  },
  {
    name: 'warmer',
    words: ['warm', 'warmer', 'golden', 'sunny'],
    apply: via((s) =>
      s.recomb([
        [1.12, 0, 0],
        [0, 1.02, 0],
        [0, 0, 0.85],
      ]),
    ),
  },
  {
    name: 'cooler',
    words: ['cool', 'cooler', 'cold', 'icy', 'blue tint'],
    apply: via((s) =>
      s.recomb([
        [0.86, 0, 0],
        [0, 1.0, 0],
        [0, 0, 1.15],
      ]),
    ),
  },
  {
    name: 'invert',
    words: ['invert', 'inverted', 'negative'],
    apply: via((s) => s.negate({ alpha: false })),
  },
  {
    name: 'mirror',
    words: ['mirror', 'mirrored', 'flip horizontally', 'horizontal flip', 'flop'],
    apply: via((s) => s.flop()),
  },
  {
    name: 'flip vertically',
    words: ['flip vertically', 'vertical flip', 'upside down', 'upside-down'],
    apply: via((s) => s.flip()),
  },
  {
    name: 'rotate',
    words: ['rotate', 'rotated', 'turn sideways'],
    apply: (image, p) => via((s) => s.rotate(rotationFrom(p), { background: '#000000' }))(image),
  },
  {
    name: 'posterize',
    words: ['posterize', 'posterise', 'poster', 'pop art', 'flat colors', 'flat colours'],
    apply: async (image) => posterize(image, 4),
  },
  {
    name: 'cartoon',
    words: ['cartoon', 'comic', 'cel shaded', 'anime', 'illustration', 'painting', 'painted', 'drawing'],
    apply: cartoon,
  },
  {
    name: 'pixelate',
    words: ['pixelate', 'pixelated', 'pixel art', '8-bit', '8 bit', 'mosaic'],
    apply: async (image) => {
      const small = await toRaw(
        load(image).resize(Math.max(1, Math.round(image.width / 16)), null, { kernel: 'nearest' }),
      );
      return toRaw(
        sharp(small.data, { raw: { width: small.width, height: small.height, channels: 3 } }).resize(
          image.width,
          image.height,
          { kernel: 'nearest', fit: 'fill' },
        ),
      );
    },
  },
];

/** The gentle default when the prompt names no known edit: auto-levels, a little colour and detail. */
export const AUTO_ENHANCE: ImageEdit = {
  name: 'auto-enhance',
  words: [],
  apply: via((s) => s.normalise({ lower: 1, upper: 99 }).modulate({ saturation: 1.15 }).sharpen()),
};

/** The edits a prompt asks for, in the order it names them. Each edit is applied once. */
export function editsFromPrompt(prompt: PromptWords): ImageEdit[] {
  const found: Array<[number, ImageEdit]> = [];
  for (const edit of IMAGE_EDITS) {
    let first = -1;
    for (const word of edit.words) {
      if (!prompt.has(word)) continue;
      const at = prompt.text.indexOf(word.split(' ')[0] ?? word);
      if (at >= 0 && (first < 0 || at < first)) first = at;
    }
    if (first >= 0) found.push([first, edit]);
  }
  // "Black and white" also contains "white"/"black": nothing else uses those words, so no clash.
  // "upside down" means a vertical flip, not a rotation, unless rotate is named too.
  const names = new Set(found.map(([, e]) => e.name));
  const kept = found.filter(
    ([, e]) => !(e.name === 'rotate' && names.has('flip vertically') && !prompt.has('rotate')),
  );
  kept.sort((a, b) => a[0] - b[0]);
  return kept.map(([, e]) => e);
}
