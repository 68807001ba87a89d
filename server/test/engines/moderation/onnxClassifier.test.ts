import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationEngine, TextClassifierConfigError } from '../../../src/engines/moderation/index.js';
import {
  loadOnnxTextClassifier,
  type OnnxClassifierConfig,
} from '../../../src/engines/moderation/text/onnxClassifier.js';
import { WordPieceTokenizer } from '../../../src/engines/moderation/text/wordPiece.js';
import { tinyTextClassifierModel } from './tinyOnnxModel.js';

let root: string;
const X = 'X'.charCodeAt(0); // the tiny model's "sexual" byte
const HASH = '#'.charCodeAt(0); // its "threat" byte

const baseConfig: OnnxClassifierConfig = {
  tokenizer: { type: 'bytes', maxLength: 512 },
  inputs: { ids: 'input_ids', mask: 'attention_mask' },
  output: 'logits',
  activation: 'softmax',
  labels: ['ok', 'sexual', 'threat'],
  policies: { nsfw: ['sexual'], violence: ['threat'] },
};

async function classifierDir(name: string, config: unknown, model = true): Promise<string> {
  const dir = join(root, name);
  await (await import('node:fs/promises')).mkdir(dir);
  if (model) {
    await writeFile(
      join(dir, 'model.onnx'),
      tinyTextClassifierModel(3, { [X]: [0, 6, 0], [HASH]: [0, 0, 6] }, [2, 0, 0]),
    );
  }
  await writeFile(join(dir, 'classifier.json'), JSON.stringify(config));
  return dir;
}

describe('local ONNX text classifier (onnxruntime-node, a tiny model built by the test)', () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mediagen-onnx-'));
  });
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('loads the directory and scores with the model', async () => {
    const classifier = await loadOnnxTextClassifier(await classifierDir('plain', baseConfig));
    expect(classifier.policies).toEqual(['nsfw', 'violence']);
    expect(await classifier.score('an ordinary sentence', 'nsfw')).toBeLessThan(0.2);
    expect(await classifier.score('an ordinary X sentence', 'nsfw')).toBeGreaterThan(0.9);
    expect(await classifier.score('an ordinary X sentence', 'violence')).toBeLessThan(0.2);
    expect(await classifier.score('# marks the threat', 'violence')).toBeGreaterThan(0.9);
  });

  it('is used by the engine for its policies, combined with the lexicons by max', async () => {
    const engine = createModerationEngine({ textClassifierDir: await classifierDir('engine', baseConfig) });
    await engine.warmUp();
    // The model alone sees X; the lexicons alone see "send nudes"; max keeps both.
    expect(await engine.scoreText('hello X', 'nsfw')).toBeGreaterThan(0.9);
    expect(await engine.scoreText('send nudes now', 'nsfw')).toBeGreaterThanOrEqual(0.5);
    expect(await engine.scoreText('a quiet afternoon', 'nsfw')).toBeLessThan(0.2);
    // hate has no label in this model: the lexicons answer.
    expect(await engine.scoreText('Immigrants are vermin.', 'hate')).toBeGreaterThanOrEqual(0.5);
    expect(await engine.scoreText('hello X', 'hate')).toBe(0.01);
  });

  it('lets the model alone decide with combine "replace"', async () => {
    const engine = createModerationEngine({
      textClassifierDir: await classifierDir('replace', { ...baseConfig, combine: 'replace' }),
    });
    expect(await engine.scoreText('send nudes now', 'nsfw')).toBeLessThan(0.2);
    expect(await engine.scoreText('hello X', 'nsfw')).toBeGreaterThan(0.9);
  });

  it('applies sigmoid for multi-label models', async () => {
    const classifier = await loadOnnxTextClassifier(
      await classifierDir('sigmoid', { ...baseConfig, activation: 'sigmoid' }),
    );
    // logit 6 -> sigmoid 0.9975; logit 0 -> 0.5 (a multi-label model's "unsure").
    expect(await classifier.score('X', 'nsfw')).toBeCloseTo(1 / (1 + Math.exp(-6)), 4);
    expect(await classifier.score('plain', 'nsfw')).toBeCloseTo(0.5, 4);
  });

  it('refuses unusable directories with a message naming the problem', async () => {
    await expect(loadOnnxTextClassifier(join(root, 'missing'))).rejects.toBeInstanceOf(
      TextClassifierConfigError,
    );
    await expect(
      loadOnnxTextClassifier(
        await classifierDir('badlabel', { ...baseConfig, policies: { nsfw: ['porn'] } }),
      ),
    ).rejects.toThrow(/unknown label "porn"/);
    await expect(
      loadOnnxTextClassifier(await classifierDir('badinput', { ...baseConfig, inputs: { ids: 'tokens' } })),
    ).rejects.toThrow(/no input "tokens"/);
    await expect(
      loadOnnxTextClassifier(await classifierDir('badact', { ...baseConfig, activation: 'relu' })),
    ).rejects.toThrow(/activation/);
    const engine = createModerationEngine({ textClassifierDir: join(root, 'missing') });
    await expect(engine.warmUp()).rejects.toBeInstanceOf(TextClassifierConfigError);
  });
});

describe('WordPiece tokenizer (BERT vocab.txt)', () => {
  const vocab = [
    '[PAD]',
    '[UNK]',
    '[CLS]',
    '[SEP]',
    'hello',
    'world',
    'un',
    '##believ',
    '##able',
    '!',
    '世',
    '界',
  ];
  const tokenizer = new WordPieceTokenizer(vocab, { lowercase: true, maxLength: 16 });

  it('splits words into the longest pieces, punctuation and CJK characters apart', () => {
    expect(tokenizer.encode('Hello, unbelievable World! 世界 zzz').ids).toEqual([
      2, 4, 1, 6, 7, 8, 5, 9, 10, 11, 1, 3,
    ]);
  });

  it('caps the sequence at maxLength, keeping [CLS] and [SEP]', () => {
    const { ids, mask } = tokenizer.encode('hello '.repeat(50));
    expect(ids).toHaveLength(16);
    expect(ids[0]).toBe(2);
    expect(ids[15]).toBe(3);
    expect(mask).toHaveLength(16);
  });

  it('needs the special tokens in the vocab', () => {
    expect(() => new WordPieceTokenizer(['a', 'b'], { lowercase: true, maxLength: 8 })).toThrow(/\[UNK\]/);
  });
});
