/**
 * violence and hate on images: the written text in the picture, read by tesseract.js (ocrImage.ts)
 * and scored by the text moderation (imagePolicies.ts). Pictures are real photos from
 * test/fixtures/moderation with text drawn over them by sharp (SVG), in the two ways text reaches
 * moderation in practice: meme lettering (white, dark outline, over the photo) and a caption band.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageDecodeError } from '../../../src/engines/moderation/decodeImage.js';
import { scoreImageForPolicy } from '../../../src/engines/moderation/imagePolicies.js';
import {
  closeOcrWorker,
  configuredOcrLanguages,
  readImageText,
} from '../../../src/engines/moderation/ocrImage.js';
import { scoreText } from '../../../src/engines/moderation/text/scoreText.js';
import { FIXTURES, ORDINARY_PHOTOS } from './fixtures.js';

const WIDTH = 768;
const THRESHOLD = 0.5;
const OCR_TIMEOUT = 120_000;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A fixture photo, WIDTH px wide, with `lines` drawn as meme lettering or as a caption band below. */
async function picture(photo: string, lines: string[], style: 'meme' | 'caption'): Promise<Buffer> {
  const base = await sharp(FIXTURES + photo)
    .resize({ width: WIDTH })
    .toBuffer({ resolveWithObject: true });
  const { width, height } = base.info;
  const size = style === 'meme' ? 52 : 36;
  const band = style === 'caption' ? Math.round(size * 1.5 * lines.length + size) : 0;
  const text = lines
    .map((line, i) => {
      const y = style === 'meme' ? size * 1.3 * (i + 1) : height + size * 1.2 + size * 1.5 * i;
      return `<text x="${width / 2}" y="${y}" text-anchor="middle">${escapeXml(line)}</text>`;
    })
    .join('');
  const font =
    style === 'meme'
      ? `font: bold ${size}px 'DejaVu Sans', sans-serif; fill: #fff; stroke: #000; stroke-width: 3px`
      : `font: ${size}px 'DejaVu Sans', sans-serif; fill: #111`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + band}"><style>text { ${font} }</style>${text}</svg>`;
  return sharp(base.data)
    .extend({ bottom: band, background: '#ffffff' })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

afterAll(async () => {
  await closeOcrWorker();
});

describe('violence and hate on images: OCR of the written text, scored by text moderation', () => {
  const harmful = [
    {
      name: 'an English threat as meme lettering',
      policy: 'violence',
      photo: 'brick-wall.jpg',
      style: 'meme',
      lines: ['I WILL KILL YOU', 'IF YOU COME BACK'],
    },
    {
      name: 'an English slur caption',
      policy: 'hate',
      photo: 'dandelions.jpg',
      style: 'caption',
      lines: ['Immigrants are vermin and', 'should be deported.'],
    },
    {
      name: 'a German threat as meme lettering',
      policy: 'violence',
      photo: 'brick-wall.jpg',
      style: 'meme',
      lines: ['ICH BRINGE DICH UM,', 'WENN DU ZURÜCKKOMMST'],
    },
  ] as const;

  it.each(harmful)(
    'flags $name for $policy',
    async ({ policy, photo, style, lines }) => {
      const image = await picture(photo, [...lines], style);
      const score = await scoreImageForPolicy(image, policy);
      expect(score).toBeGreaterThanOrEqual(THRESHOLD);
    },
    OCR_TIMEOUT,
  );

  const ordinary = [
    {
      name: 'a birthday meme',
      photo: 'chelsea-cat.jpg',
      style: 'meme',
      lines: ['HAPPY BIRTHDAY', 'GRANDMA'],
    },
    {
      name: 'a German birthday caption',
      photo: 'group-composite.jpg',
      style: 'caption',
      lines: ['Alles Gute zum Geburtstag, Oma!'],
    },
  ] as const;

  it.each(ordinary)(
    'reads $name and does not flag it',
    async ({ photo, style, lines }) => {
      const image = await picture(photo, [...lines], style);
      const texts = await readImageText(image);
      // The OCR must really have read the caption (otherwise "not flagged" would prove nothing).
      expect(texts.join(' ').toLowerCase()).toMatch(/birthday|geburtstag/);
      // Scored as scoreImageForPolicy does (each reading through the text moderation), one OCR only.
      for (const policy of ['violence', 'hate'] as const) {
        for (const text of texts) expect(await scoreText(text, policy), text).toBeLessThan(THRESHOLD);
      }
    },
    OCR_TIMEOUT,
  );

  it.each(ORDINARY_PHOTOS)(
    'does not flag the ordinary photo %s for violence or hate',
    async (name) => {
      const image = readFileSync(FIXTURES + name);
      const texts = await readImageText(image);
      for (const policy of ['violence', 'hate'] as const) {
        for (const text of texts) expect(await scoreText(text, policy), text).toBeLessThan(THRESHOLD);
      }
    },
    OCR_TIMEOUT,
  );

  it(
    'answers the floor 0.01 for a picture without text',
    async () => {
      const plain = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#6a8fb0' } })
        .png()
        .toBuffer();
      expect(await readImageText(plain)).toEqual(['', '']);
      expect(await scoreImageForPolicy(plain, 'violence')).toBe(0.01);
    },
    OCR_TIMEOUT,
  );

  it('still rejects bytes that are not an image', async () => {
    await expect(scoreImageForPolicy(Buffer.from('not an image at all'), 'hate')).rejects.toBeInstanceOf(
      ImageDecodeError,
    );
  });

  it('stops when the caller aborts', async () => {
    const image = await picture('astronaut.jpg', ['I will kill you'], 'caption');
    await expect(scoreImageForPolicy(image, 'violence', AbortSignal.abort())).rejects.toThrow();
  });
});

describe('OCR languages (MEDIAGEN_OCR_LANGUAGES)', () => {
  const saved = process.env.MEDIAGEN_OCR_LANGUAGES;
  const setLanguages = async (value: string | undefined) => {
    await closeOcrWorker();
    if (value === undefined) delete process.env.MEDIAGEN_OCR_LANGUAGES;
    else process.env.MEDIAGEN_OCR_LANGUAGES = value;
  };
  afterAll(() => setLanguages(saved));

  it('defaults to English and checks the codes it is given', () => {
    expect(configuredOcrLanguages({})).toEqual(['eng']);
    expect(configuredOcrLanguages({ MEDIAGEN_OCR_LANGUAGES: 'eng+deu' })).toEqual(['eng', 'deu']);
    expect(() => configuredOcrLanguages({ MEDIAGEN_OCR_LANGUAGES: 'english' })).toThrow(
      /not a Tesseract language code/,
    );
  });

  it(
    'names the missing package when a configured language is not installed',
    async () => {
      await setLanguages('eng+kor');
      const image = await picture('astronaut.jpg', ['hello'], 'caption');
      await expect(readImageText(image)).rejects.toThrow(/@tesseract\.js-data\/kor is not installed/);
    },
    OCR_TIMEOUT,
  );

  it(
    'with German data loaded, reads umlauts and flags a German slur caption for hate',
    async () => {
      await setLanguages('eng+deu');
      const image = await picture(
        'rocket.jpg',
        ['Flüchtlinge sind Parasiten,', 'raus mit ihnen!'],
        'caption',
      );
      expect((await readImageText(image)).join(' ')).toMatch(/Flüchtlinge/);
      expect(await scoreImageForPolicy(image, 'hate')).toBeGreaterThanOrEqual(THRESHOLD);
    },
    OCR_TIMEOUT,
  );
});
