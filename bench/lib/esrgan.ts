/**
 * The UpscalerJS "ESRGAN" models as the upscale benchmark runs them: the Keras model.json and weight
 * shards that ship INSIDE the npm packages (@upscalerjs/default-model, esrgan-medium, esrgan-thick),
 * read from disk and handed to tf.loadLayersModel through tf.io.fromMemory, so nothing is fetched from
 * any host. The `upscaler` package itself is not used: its Node entry requires @tensorflow/tfjs-node
 * (which cannot be installed offline) and its browser ESM build has extension-less imports that Node
 * cannot resolve; what it would add here (tiling) is the small loop below.
 *
 * What the packages hold, from their model definitions: default-model and esrgan-slim/medium are RDN
 * networks (Residual Dense Network, idealo's image-super-resolution, trained on DIV2K, inputs and
 * outputs 0..255); esrgan-thick is an RRDN (the ESRGAN generator's residual-in-residual dense blocks).
 * UpscalerJS feeds thick 0..1, but its graph gives the same picture for 0..255 in and out (measured:
 * the same PSNR to 0.01 dB on a photo), so every model here is fed 0..255. Thick needs two custom layers,
 * registered here as UpscalerJS's own definition does (MultiplyBeta = x * 0.2, PixelShuffleNx =
 * depthToSpace). default-model's weights are byte-identical to esrgan-slim's x2 weights.
 *
 * Inference runs on the shared wasm backend (server/src/engines/moderation/tfBackend.ts), one tile at a
 * time: a tile of TILE x TILE input pixels plus CONTEXT pixels of its neighbours on every side, whose
 * centre is kept, so tiles meet without seams and memory stays bounded at any picture size.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type * as tfType from '@tensorflow/tfjs';

type Tf = typeof tfType;

/** Input pixels per tile side, and pixels of context borrowed from the neighbours on each side. */
export const TILE = 256;
export const CONTEXT = 12;

interface WeightsGroup {
  paths: string[];
  weights: tfType.io.WeightsManifestEntry[];
}

let registered = false;

/** The two layers esrgan-thick's graph names, as UpscalerJS defines them. */
function registerThickLayers(tf: Tf, scale: number): void {
  if (registered) return;
  registered = true;
  const pick = (inputs: tfType.Tensor | tfType.Tensor[]) => (Array.isArray(inputs) ? inputs[0]! : inputs);
  class MultiplyBeta extends tf.layers.Layer {
    static className = 'MultiplyBeta';
    constructor() {
      super({});
    }
    override call(inputs: tfType.Tensor | tfType.Tensor[]) {
      return tf.mul(pick(inputs), 0.2);
    }
  }
  class PixelShuffle extends tf.layers.Layer {
    static className = `PixelShuffle${scale}x`;
    constructor() {
      super({});
    }
    override computeOutputShape(shape: tfType.Shape): tfType.Shape {
      return [shape[0]!, shape[1]!, shape[2]!, 3];
    }
    override call(inputs: tfType.Tensor | tfType.Tensor[]) {
      return tf.depthToSpace(pick(inputs) as tfType.Tensor4D, scale, 'NHWC');
    }
  }
  tf.serialization.registerClass(MultiplyBeta);
  tf.serialization.registerClass(PixelShuffle);
}

/** Loads `models/.../model.json` and its weight shards from disk. */
export async function loadEsrgan(tf: Tf, modelJson: string, scale: number): Promise<tfType.LayersModel> {
  registerThickLayers(tf, scale);
  const json = JSON.parse(await readFile(modelJson, 'utf8')) as {
    modelTopology: object;
    weightsManifest: WeightsGroup[];
  };
  const shards: Buffer[] = [];
  for (const group of json.weightsManifest) {
    for (const path of group.paths) shards.push(await readFile(join(dirname(modelJson), path)));
  }
  const all = Buffer.concat(shards);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
  const weightSpecs = json.weightsManifest.flatMap((group) => group.weights);
  return tf.loadLayersModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs, weightData }));
}

/**
 * Upscales an interleaved RGB raster by the model's `scale`, tile by tile; returns the
 * (width * scale) x (height * scale) RGB raster.
 */
export function upscaleRgb(
  tf: Tf,
  model: tfType.LayersModel,
  scale: number,
  rgb: Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  if (rgb.length !== width * height * 3) throw new RangeError(`expected a ${width}x${height} RGB raster`);
  const outWidth = width * scale;
  const out = new Uint8Array(outWidth * height * scale * 3);
  const image = tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    for (let top = 0; top < height; top += TILE) {
      for (let left = 0; left < width; left += TILE) {
        const x0 = Math.max(0, left - CONTEXT);
        const y0 = Math.max(0, top - CONTEXT);
        const x1 = Math.min(width, left + TILE + CONTEXT);
        const y1 = Math.min(height, top + TILE + CONTEXT);
        const tile = tf.tidy(() => {
          const input = tf
            .slice(image, [y0, x0, 0], [y1 - y0, x1 - x0, 3])
            .toFloat()
            .expandDims(0);
          return (model.predict(input) as tfType.Tensor).clipByValue(0, 255).round();
        });
        const values = tile.dataSync();
        tile.dispose();
        const tileWidth = (x1 - x0) * scale;
        const keepWidth = Math.min(TILE, width - left) * scale;
        const keepHeight = Math.min(TILE, height - top) * scale;
        const dx = (left - x0) * scale;
        const dy = (top - y0) * scale;
        for (let row = 0; row < keepHeight; row++) {
          const from = ((dy + row) * tileWidth + dx) * 3;
          out.set(
            values.subarray(from, from + keepWidth * 3),
            ((top * scale + row) * outWidth + left * scale) * 3,
          );
        }
      }
    }
  } finally {
    image.dispose();
  }
  return out;
}
