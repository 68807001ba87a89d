/**
 * Compiles a Keras functional model (a tfjs LayersModel, as nsfwjs ships its MobileNetV2) into one
 * inference function with each BatchNormalization folded into the convolution before it and the ReLU
 * after that fused in, so a conv + BN + ReLU6 block runs as ONE kernel of the wasm backend (XNNPACK)
 * instead of three passes over memory.
 *
 * Why: tf.profile of nsfwjs's MobileNetV2 on the wasm backend spent 30 of its 70 ms in the 52
 * separate FusedBatchNorm kernels and 5 more in the 35 ReLU/clip kernels. Folding is exact algebra
 * (an inference-time BN is an affine map per channel), so the output is the same model's to float
 * rounding; nsfwImage.ts checks that against the stock predict() at load and keeps the stock path if
 * they disagree.
 *
 *   BN(conv(x, W) + b) = conv(x, W * s) + (b - mean) * s + beta,  s = gamma / sqrt(var + epsilon)
 *
 * Only the layer types below are understood (enough for nsfwjs's MobileNetV2 and InceptionV3); any
 * other throws UnsupportedModelError and the caller runs the stock model. MobileNetV2Mid is a graph
 * model, not a layers model, and always runs as shipped.
 */
import type * as tfType from '@tensorflow/tfjs';

type Tf = typeof tfType;
type Tensor = tfType.Tensor;
type Activation = 'linear' | 'relu' | 'relu6';

export class UnsupportedModelError extends Error {
  override name = 'UnsupportedModelError';
}

/** The parts of a tfjs layer this module reads (tfjs-layers does not export these types). */
interface KerasLayer {
  name: string;
  getClassName(): string;
  getConfig(): Record<string, unknown>;
  getWeights(): Tensor[];
  inboundNodes: Array<{ inboundLayers: KerasLayer[] }>;
}

export interface FusedModel {
  /** Runs the model on a [n, h, w, c] float batch; the caller disposes the result. */
  predict(input: Tensor): Tensor;
  /** Frees the folded weights. */
  dispose(): void;
  /** Number of BatchNormalization layers folded away (for the log and the tests). */
  readonly foldedBatchNorms: number;
}

type Step = (values: Map<string, Tensor>) => void;

function reluActivation(layer: KerasLayer): Activation | undefined {
  const cfg = layer.getConfig();
  if (layer.getClassName() === 'ReLU') {
    if ((cfg.negativeSlope ?? 0) !== 0 || (cfg.threshold ?? 0) !== 0) return undefined;
    if (cfg.maxValue == null) return 'relu';
    return cfg.maxValue === 6 ? 'relu6' : undefined;
  }
  if (layer.getClassName() === 'Activation' && cfg.activation === 'relu') return 'relu';
  return undefined;
}

function denseActivation(name: unknown): Activation | 'softmax' {
  if (name === 'linear' || name === 'relu' || name === 'softmax') return name;
  throw new UnsupportedModelError(`activation "${String(name)}" is not supported`);
}

/** BatchNormalization's weights as per-channel scale and shift (inference mode). */
function batchNormAffine(tf: Tf, bn: KerasLayer): { scale: Tensor; shift: Tensor } {
  const cfg = bn.getConfig();
  const axis = cfg.axis as number | number[];
  if (!(
    axis === -1 ||
    axis === 3 ||
    (Array.isArray(axis) && axis.length === 1 && (axis[0] === -1 || axis[0] === 3))
  )) {
    throw new UnsupportedModelError(`BatchNormalization ${bn.name} is not over the channel axis`);
  }
  const weights = [...bn.getWeights()];
  const gamma = cfg.scale === false ? undefined : weights.shift();
  const beta = cfg.center === false ? undefined : weights.shift();
  const [mean, variance] = weights;
  if (!mean || !variance)
    throw new UnsupportedModelError(`BatchNormalization ${bn.name} has no moving statistics`);
  return tf.tidy(() => {
    const inv = tf.rsqrt(tf.add(variance, cfg.epsilon as number));
    const scale = gamma ? tf.mul(gamma, inv) : inv;
    const shifted = tf.neg(tf.mul(mean, scale));
    return { scale, shift: beta ? tf.add(shifted, beta) : shifted };
  });
}

export function fuseLayersModel(tf: Tf, model: { layers: unknown[]; outputs: unknown[] }): FusedModel {
  const layers = model.layers as KerasLayer[];
  const inputsOf = (layer: KerasLayer) => {
    if (layer.inboundNodes.length > 1) throw new UnsupportedModelError(`layer ${layer.name} is shared`);
    return layer.inboundNodes[0]?.inboundLayers.map((l) => l.name) ?? [];
  };
  const consumers = new Map<string, string[]>();
  for (const layer of layers) {
    for (const input of inputsOf(layer)) consumers.set(input, [...(consumers.get(input) ?? []), layer.name]);
  }
  const byName = new Map(layers.map((l) => [l.name, l]));
  /** The single layer reading `name`'s output, if exactly one does. */
  const soleConsumer = (name: string) => {
    const list = consumers.get(name) ?? [];
    return list.length === 1 ? byName.get(list[0]!) : undefined;
  };

  const kept: Tensor[] = [];
  const keep = <T extends Tensor>(t: T): T => {
    kept.push(tf.keep(t));
    return t;
  };
  const absorbed = new Set<string>();
  /** Convolutions that take over the zero padding of the ZeroPadding2D layer before them. */
  const explicitPadding = new Map<
    string,
    { from: string; pad: [[0, 0], [number, number], [number, number], [0, 0]] }
  >();
  const steps: Step[] = [];
  let inputName: string | undefined;
  let folded = 0;

  try {
    for (const layer of layers) {
      if (absorbed.has(layer.name)) continue;
      const cls = layer.getClassName();
      const cfg = layer.getConfig();
      const [from] = inputsOf(layer);
      const out = layer.name;
      switch (cls) {
        case 'InputLayer':
          if (inputName) throw new UnsupportedModelError('more than one input');
          inputName = out;
          break;
        case 'ZeroPadding2D': {
          const [[top, bottom], [left, right]] = cfg.padding as [[number, number], [number, number]];
          const conv = soleConsumer(out);
          const convClass = conv?.getClassName();
          if (
            (convClass === 'Conv2D' || convClass === 'DepthwiseConv2D') &&
            conv!.getConfig().padding === 'valid'
          ) {
            // The convolution pads its own input: one pass instead of a padded copy first.
            explicitPadding.set(conv!.name, {
              from: from!,
              pad: [
                [0, 0],
                [top, bottom],
                [left, right],
                [0, 0],
              ],
            });
            break;
          }
          steps.push((v) =>
            v.set(
              out,
              tf.pad(v.get(from!)!, [
                [0, 0],
                [top, bottom],
                [left, right],
                [0, 0],
              ]),
            ),
          );
          break;
        }
        case 'Conv2D':
        case 'DepthwiseConv2D': {
          const depthwise = cls === 'DepthwiseConv2D';
          if ((cfg.dilationRate as number[]).some((d) => d !== 1)) {
            throw new UnsupportedModelError(`${layer.name}: dilated convolutions are not supported`);
          }
          if (cfg.activation !== 'linear' && cfg.activation !== 'relu') {
            throw new UnsupportedModelError(`${layer.name}: activation ${String(cfg.activation)}`);
          }
          let [kernel, bias] = layer.getWeights();
          let activation: Activation = cfg.activation === 'relu' ? 'relu' : 'linear';
          let outName = out;
          const bn = activation === 'linear' ? soleConsumer(out) : undefined;
          if (bn?.getClassName() === 'BatchNormalization') {
            const { scale, shift } = batchNormAffine(tf, bn);
            const channels = scale.shape[0]!;
            const folded_ = tf.tidy(() => ({
              kernel: tf.mul(kernel!, depthwise ? tf.reshape(scale, [1, 1, channels, 1]) : scale),
              bias: bias ? tf.add(tf.mul(bias, scale), shift) : shift.clone(),
            }));
            scale.dispose();
            shift.dispose();
            kernel = folded_.kernel;
            bias = folded_.bias;
            kept.push(kernel, bias);
            absorbed.add(bn.name);
            outName = bn.name;
            folded += 1;
            const relu = soleConsumer(bn.name);
            const act = relu ? reluActivation(relu) : undefined;
            if (relu && act) {
              activation = act;
              absorbed.add(relu.name);
              outName = relu.name;
            }
          }
          const strides = cfg.strides as [number, number];
          const padded = explicitPadding.get(layer.name);
          const pad = padded ? padded.pad : (cfg.padding as 'same' | 'valid');
          const source = padded ? padded.from : from!;
          const w = kernel as tfType.Tensor4D;
          const b = bias as tfType.Tensor1D | undefined;
          const target = outName;
          steps.push((v) => {
            const x = v.get(source)! as tfType.Tensor4D;
            const y = depthwise
              ? // tfjs's typings leave explicit padding out for depthwise convolutions, but the op takes
                // it (it goes through the same computeConv2DInfo); the load-time check in nsfwImage.ts
                // compares the result with the stock model.
                tf.fused.depthwiseConv2d({ x, filter: w, strides, pad: pad as 'valid', bias: b, activation })
              : tf.fused.conv2d({ x, filter: w, strides, pad, bias: b, activation });
            v.set(target, y);
          });
          break;
        }
        case 'BatchNormalization': {
          const { scale, shift } = batchNormAffine(tf, layer);
          keep(scale);
          keep(shift);
          steps.push((v) => v.set(out, tf.add(tf.mul(v.get(from!)!, scale), shift)));
          break;
        }
        case 'ReLU':
        case 'Activation': {
          const act = reluActivation(layer);
          if (!act) throw new UnsupportedModelError(`${layer.name}: unsupported ${cls}`);
          steps.push((v) => {
            const x = v.get(from!)!;
            v.set(out, act === 'relu6' ? tf.relu6(x) : tf.relu(x));
          });
          break;
        }
        case 'Add': {
          const inputs = inputsOf(layer);
          steps.push((v) => v.set(out, tf.addN(inputs.map((n) => v.get(n)!))));
          break;
        }
        case 'AveragePooling2D':
        case 'MaxPooling2D': {
          const size = cfg.poolSize as [number, number];
          const strides = (cfg.strides as [number, number] | null) ?? size;
          const pad = cfg.padding as 'same' | 'valid';
          const pool = cls === 'MaxPooling2D' ? tf.maxPool : tf.avgPool;
          steps.push((v) => v.set(out, pool(v.get(from!)! as tfType.Tensor4D, size, strides, pad)));
          break;
        }
        case 'Concatenate': {
          if (cfg.axis !== -1 && cfg.axis !== 3)
            throw new UnsupportedModelError(`${layer.name}: not on channels`);
          const inputs = inputsOf(layer);
          steps.push((v) =>
            v.set(
              out,
              tf.concat(
                inputs.map((n) => v.get(n)!),
                3,
              ),
            ),
          );
          break;
        }
        case 'GlobalAveragePooling2D':
          steps.push((v) => v.set(out, tf.mean(v.get(from!)!, [1, 2])));
          break;
        case 'Flatten':
          steps.push((v) => {
            const x = v.get(from!)!;
            v.set(out, tf.reshape(x, [x.shape[0]!, -1]));
          });
          break;
        case 'Dropout':
          steps.push((v) => v.set(out, v.get(from!)!));
          break;
        case 'Dense': {
          const activation = denseActivation(cfg.activation);
          const [kernel, bias] = layer.getWeights() as [tfType.Tensor2D, tfType.Tensor1D | undefined];
          steps.push((v) => {
            const x = v.get(from!)! as tfType.Tensor2D;
            const y = tf.fused.matMul({
              a: x,
              b: kernel,
              bias,
              activation: activation === 'softmax' ? 'linear' : activation,
            });
            v.set(out, activation === 'softmax' ? tf.softmax(y) : y);
          });
          break;
        }
        default:
          throw new UnsupportedModelError(`layer type ${cls} (${layer.name}) is not supported`);
      }
    }
    if (!inputName) throw new UnsupportedModelError('the model has no input layer');
    if (model.outputs.length !== 1) throw new UnsupportedModelError('the model has more than one output');
  } catch (error) {
    for (const t of kept) t.dispose();
    throw error;
  }

  const last =
    (model.outputs[0] as { sourceLayer?: { name: string } }).sourceLayer?.name ?? layers.at(-1)!.name;
  const input = inputName;
  return {
    foldedBatchNorms: folded,
    predict(x) {
      return tf.tidy(() => {
        const values = new Map<string, Tensor>([[input, x]]);
        for (const step of steps) step(values);
        return values.get(last)!;
      });
    },
    dispose() {
      for (const t of kept) t.dispose();
      kept.length = 0;
    },
  };
}
