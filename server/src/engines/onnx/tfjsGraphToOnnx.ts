/**
 * Converts a TensorFlow.js graph model, as tfjs-converter loaded it, into an ONNX model, so that
 * onnxruntime-node's native CPU kernels can run the same weights. The faces engine uses it for BlazeFace
 * (docs/faces.md, "Where detection's time goes"): the same network takes about 28 ms per run on tfjs's
 * single-threaded WebAssembly backend here and about 6 ms on one onnxruntime thread, with outputs equal to
 * within 1e-4.
 *
 * The conversion is done in memory when a model loads (about 40 ms for BlazeFace); nothing is written or
 * downloaded. It covers the operations of the convolutional networks the engines run (convolutions,
 * depthwise convolutions, their fused bias and activations, additions, ReLU, PReLU, sigmoid, max pooling,
 * padding, reshapes) and refuses any other operation by name, so a model it cannot convert fails loudly
 * at load time instead of answering something else. tfjs works in NHWC and ONNX in NCHW: the input is
 * transposed once, filters are rearranged, and a tensor is transposed back before a reshape or an output.
 * The protobuf messages are written with onnx-proto (ONNX's schema compiled by protobufjs).
 */
import { createRequire } from 'node:module';
import type { GraphModel } from '@tensorflow/tfjs';
import type * as OnnxProto from 'onnx-proto';

const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof OnnxProto;
type Attribute = OnnxProto.onnx.IAttributeProto;

/** What the conversion reads of a tfjs graph node (tfjs-converter's internal Node, which it does not export). */
interface GraphNode {
  name: string;
  op: string;
  inputNames: string[];
  inputs: GraphNode[];
  attrParams: Record<string, { value: unknown } | undefined>;
}
interface Graph {
  nodes: Record<string, GraphNode>;
  inputs: GraphNode[];
  outputs: GraphNode[];
}

/** Thrown for a graph the converter cannot express in ONNX (the operation is named). */
export class UnsupportedGraphError extends Error {
  override name = 'UnsupportedGraphError';
}

const OPSET = 13;
const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];

const ints = (name: string, values: number[]): Attribute => ({
  name,
  type: onnx.AttributeProto.AttributeType.INTS,
  ints: values,
});
const int = (name: string, value: number): Attribute => ({
  name,
  type: onnx.AttributeProto.AttributeType.INT,
  i: value,
});
const text = (name: string, value: string): Attribute => ({
  name,
  type: onnx.AttributeProto.AttributeType.STRING,
  s: new TextEncoder().encode(value),
});

/**
 * The ONNX model (serialized ModelProto) computing the same outputs as `model` for the same NHWC input.
 * The graph's inputs and outputs keep tfjs's names (without ":0"), so an onnxruntime session is fed and
 * read by the names tfjs uses.
 */
export function tfjsGraphToOnnx(model: GraphModel, name = 'converted'): Uint8Array {
  const graph = (model as unknown as { executor: { graph: Graph } }).executor.graph;
  const weights = model.weights;
  const nodes: OnnxProto.onnx.INodeProto[] = [];
  const initializers: OnnxProto.onnx.ITensorProto[] = [];
  const inputs: OnnxProto.onnx.IValueInfoProto[] = [];
  const outputs: OnnxProto.onnx.IValueInfoProto[] = [];
  /** Which tensors are laid out NCHW (the converted activations) rather than as tfjs has them. */
  const nchw = new Set<string>();
  /** tfjs Identity nodes are not emitted: their name stands for their input's. */
  const alias = new Map<string, string>();
  let serial = 0;
  const fresh = (base: string) => `${base}__${serial++}`;

  const source = (input: string) => {
    const bare = input.split(':')[0]!;
    return alias.get(bare) ?? bare;
  };
  const emit = (opType: string, input: string[], output: string[], attribute: Attribute[] = []) =>
    nodes.push({ opType, input, output, attribute, name: fresh(opType) });
  const isConst = (input: string) => graph.nodes[input.split(':')[0]!]?.op === 'Const';
  const constant = (input: string) => {
    const tensor = weights[input.split(':')[0]!]?.[0];
    if (!tensor) throw new UnsupportedGraphError(`constant ${input} has no weights`);
    return { data: tensor.dataSync(), shape: tensor.shape };
  };
  const floats = (dims: number[], data: Float32Array) => {
    const id = fresh('w');
    initializers.push({
      name: id,
      dims,
      dataType: onnx.TensorProto.DataType.FLOAT,
      rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    });
    return id;
  };
  const int64s = (values: number[]) => {
    const id = fresh('i');
    const data = BigInt64Array.from(values.map((v) => BigInt(v)));
    initializers.push({
      name: id,
      dims: [values.length],
      dataType: onnx.TensorProto.DataType.INT64,
      rawData: new Uint8Array(data.buffer),
    });
    return id;
  };
  /**
   * A per-channel constant ([C], or [1, 1, C] as PReLU's slopes come) shaped to broadcast over NCHW
   * ([C, 1, 1]); a scalar stays a scalar.
   */
  const perChannel = (input: string) => {
    const { data, shape } = constant(input);
    if (shape.slice(0, -1).some((d) => d !== 1)) {
      throw new UnsupportedGraphError(`constant ${input} of shape [${shape}] is not per channel`);
    }
    return floats(shape.length === 0 ? [] : [data.length, 1, 1], Float32Array.from(data));
  };
  /** A convolution filter: tfjs HWIO to ONNX OIHW. */
  const convFilter = (input: string) => {
    const { data, shape } = constant(input);
    const [H, W, I, O] = shape as [number, number, number, number];
    const out = new Float32Array(data.length);
    for (let h = 0; h < H; h++)
      for (let w = 0; w < W; w++)
        for (let i = 0; i < I; i++)
          for (let o = 0; o < O; o++)
            out[((o * I + i) * H + h) * W + w] = data[((h * W + w) * I + i) * O + o]!;
    return { id: floats([O, I, H, W], out), H, W, groups: 1 };
  };
  /** A depthwise filter: tfjs [H, W, C, M] to ONNX grouped [C*M, 1, H, W]. */
  const depthwiseFilter = (input: string) => {
    const { data, shape } = constant(input);
    const [H, W, C, M] = shape as [number, number, number, number];
    const out = new Float32Array(data.length);
    for (let h = 0; h < H; h++)
      for (let w = 0; w < W; w++)
        for (let c = 0; c < C; c++)
          for (let m = 0; m < M; m++)
            out[((c * M + m) * H + h) * W + w] = data[((h * W + w) * C + c) * M + m]!;
    return { id: floats([C * M, 1, H, W], out), H, W, groups: C };
  };
  const attr = <T>(node: GraphNode, key: string) => node.attrParams[key]?.value as T;
  const padding = (node: GraphNode): Attribute[] => {
    const pad = attr<string>(node, 'pad');
    if (pad === 'same') return [text('auto_pad', 'SAME_UPPER')];
    if (pad === 'valid') return [];
    throw new UnsupportedGraphError(`${node.op} ${node.name} with padding "${pad}"`);
  };
  const window = (node: GraphNode): Attribute[] => {
    const strides = attr<number[]>(node, 'strides');
    const dilations = attr<number[] | undefined>(node, 'dilations') ?? [1, 1, 1, 1];
    if (attr<string | undefined>(node, 'dataFormat') === 'nchw') {
      throw new UnsupportedGraphError(`${node.op} ${node.name} in NCHW`);
    }
    return [
      ints('strides', [strides[1]!, strides[2]!]),
      ints('dilations', [dilations[1]!, dilations[2]!]),
      ...padding(node),
    ];
  };
  const activation = (node: GraphNode, op: string, input: string, output: string) => {
    if (op === 'relu') emit('Relu', [input], [output]);
    else if (op === 'relu6')
      emit('Clip', [input, floats([], new Float32Array([0])), floats([], new Float32Array([6]))], [output]);
    else if (op === 'prelu') emit('PRelu', [input, perChannel(node.inputNames[3]!)], [output]);
    else throw new UnsupportedGraphError(`${node.op} ${node.name} fused with ${op}`);
  };

  // Nodes in an order where every input comes first (tfjs keeps them as a map).
  const order: GraphNode[] = [];
  const seen = new Set<string>();
  const visit = (node: GraphNode) => {
    if (seen.has(node.name)) return;
    seen.add(node.name);
    node.inputs.forEach(visit);
    order.push(node);
  };
  graph.outputs.forEach(visit);

  for (const node of order) {
    const ins = node.inputNames;
    const out = node.name;
    switch (node.op) {
      case 'Const':
        break;
      case 'Placeholder': {
        const shape = attr<number[]>(node, 'shape');
        if (shape.length !== 4) throw new UnsupportedGraphError(`input ${out} of rank ${shape.length}`);
        const internal = fresh(out);
        inputs.push(valueInfo(out, shape));
        emit('Transpose', [out], [internal], [ints('perm', NHWC_TO_NCHW)]);
        alias.set(out, internal);
        nchw.add(internal);
        break;
      }
      case 'Conv2D':
      case '_FusedConv2D':
      case 'DepthwiseConv2dNative':
      case 'FusedDepthwiseConv2dNative': {
        // A convolution, or a depthwise one (a Conv grouped by input channel), with its fused bias and
        // activation.
        const depthwise = node.op.includes('Depthwise');
        const fused = attr<string[] | undefined>(node, 'fusedOps') ?? [];
        const filter = depthwise ? depthwiseFilter(ins[1]!) : convFilter(ins[1]!);
        const bias = fused.includes('biasadd') ? [perChannelVector(constant(ins[2]!).data)] : [];
        const act = fused.find((op) => op !== 'biasadd');
        const conv = act ? fresh(out) : out;
        emit(
          'Conv',
          [source(ins[0]!), filter.id, ...bias],
          [conv],
          [
            ints('kernel_shape', [filter.H, filter.W]),
            ...(filter.groups > 1 ? [int('group', filter.groups)] : []),
            ...window(node),
          ],
        );
        if (act) activation(node, act, conv, out);
        nchw.add(out);
        break;
      }
      case 'Add':
      case 'AddV2': {
        const operands = ins.map((i) => (isConst(i) ? perChannel(i) : source(i)));
        if (!ins.some((i) => !isConst(i) && nchw.has(source(i)))) {
          throw new UnsupportedGraphError(`${node.op} ${out} outside the convolutional layout`);
        }
        emit('Add', operands, [out]);
        nchw.add(out);
        break;
      }
      case 'Relu':
      case 'Sigmoid':
        emit(node.op, [source(ins[0]!)], [out]);
        if (nchw.has(source(ins[0]!))) nchw.add(out);
        break;
      case 'Relu6':
        activation(node, 'relu6', source(ins[0]!), out);
        if (nchw.has(source(ins[0]!))) nchw.add(out);
        break;
      case 'Prelu':
        emit('PRelu', [source(ins[0]!), perChannel(ins[1]!)], [out]);
        nchw.add(out);
        break;
      case 'MaxPool': {
        const kernel = attr<number[]>(node, 'kernelSize');
        const strides = attr<number[]>(node, 'strides');
        emit(
          'MaxPool',
          [source(ins[0]!)],
          [out],
          [
            ints('kernel_shape', [kernel[1]!, kernel[2]!]),
            ints('strides', [strides[1]!, strides[2]!]),
            ...padding(node),
          ],
        );
        nchw.add(out);
        break;
      }
      case 'Pad': {
        const pads = Array.from(constant(ins[1]!).data as ArrayLike<number>);
        if (pads.length !== 8 || (attr<number | undefined>(node, 'constantValue') ?? 0) !== 0) {
          throw new UnsupportedGraphError(`Pad ${out} other than a zero pad of a 4-d tensor`);
        }
        const begins = NHWC_TO_NCHW.map((axis) => pads[axis * 2]!);
        const ends = NHWC_TO_NCHW.map((axis) => pads[axis * 2 + 1]!);
        emit('Pad', [source(ins[0]!), int64s([...begins, ...ends])], [out]);
        nchw.add(out);
        break;
      }
      case 'Reshape': {
        const shape = Array.from(constant(ins[1]!).data as ArrayLike<number>);
        emit('Reshape', [tfjsLayout(source(ins[0]!)), int64s(shape)], [out]);
        break;
      }
      case 'Identity':
        alias.set(out, source(ins[0]!));
        break;
      default:
        throw new UnsupportedGraphError(`operation ${node.op} (node ${out}) is not supported`);
    }
  }
  for (const output of graph.outputs) {
    emit('Identity', [tfjsLayout(source(output.name))], [output.name]);
    outputs.push({ name: output.name });
  }

  const proto = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'mediagen',
    opsetImport: [{ domain: '', version: OPSET }],
    graph: { name, node: nodes, initializer: initializers, input: inputs, output: outputs },
  });
  return onnx.ModelProto.encode(proto).finish();

  /** The tensor as tfjs lays it out: NCHW tensors are transposed back to NHWC. */
  function tfjsLayout(tensor: string): string {
    if (!nchw.has(tensor)) return tensor;
    const back = fresh(tensor);
    emit('Transpose', [tensor], [back], [ints('perm', NCHW_TO_NHWC)]);
    return back;
  }
  function perChannelVector(data: ArrayLike<number>): string {
    return floats([data.length], Float32Array.from(data));
  }
}

function valueInfo(name: string, shape: number[]): OnnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: shape.map((d) => (d > 0 ? { dimValue: d } : { dimParam: 'batch' })) },
      },
    },
  };
}
