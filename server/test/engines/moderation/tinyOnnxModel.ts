/**
 * Builds a tiny ONNX text classifier byte by byte (no onnx tooling needed), for the tests of the
 * ONNX loading path. The graph: input_ids int64 [1, n] (UTF-8 bytes) -> Gather rows of an embedding
 * [256, labels] -> ReduceMax over the tokens -> logits [1, labels]. Row b of the embedding is the
 * logit each label gets from byte b, so a test decides which characters trigger which label.
 */

function varint(value: number): number[] {
  const out: number[] = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, value: number) => [...key(field, 0), ...varint(value)];
const bytes = (field: number, payload: ArrayLike<number>) => [
  ...key(field, 2),
  ...varint(payload.length),
  ...Array.from(payload),
];
const str = (field: number, s: string) => bytes(field, Buffer.from(s, 'utf8'));

const FLOAT = 1;
const INT64 = 7;

function valueInfo(name: string, elemType: number, dims: Array<number | string>): number[] {
  const shape = dims.flatMap((d) => bytes(1, typeof d === 'number' ? int(1, d) : str(2, d)));
  const tensorType = [...int(1, elemType), ...bytes(2, shape)];
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))];
}

function node(op: string, inputs: string[], outputs: string[], attributes: number[][] = []): number[] {
  return [
    ...inputs.flatMap((i) => str(1, i)),
    ...outputs.flatMap((o) => str(2, o)),
    ...str(3, `${op}_node`),
    ...str(4, op),
    ...attributes.flatMap((a) => bytes(5, a)),
  ];
}

/** `rows[b]` (length = labels) is the logit row of byte b; bytes without a row get `fallback`. */
export function tinyTextClassifierModel(
  labels: number,
  rows: Record<number, number[]>,
  fallback: number[],
): Buffer {
  const embedding = new Float32Array(256 * labels);
  for (let b = 0; b < 256; b += 1) embedding.set(rows[b] ?? fallback, b * labels);
  const initializer = [
    ...int(1, 256),
    ...int(1, labels),
    ...int(2, FLOAT),
    ...str(8, 'embedding'),
    ...bytes(9, new Uint8Array(embedding.buffer)),
  ];
  const reduceAttrs = [
    [...str(1, 'axes'), ...int(8, 1), ...int(20, 7)],
    [...str(1, 'keepdims'), ...int(3, 0), ...int(20, 2)],
  ];
  const graph = [
    ...bytes(1, node('Gather', ['embedding', 'input_ids'], ['gathered'])),
    ...bytes(1, node('ReduceMax', ['gathered'], ['logits'], reduceAttrs)),
    ...str(2, 'tiny_text_classifier'),
    ...bytes(5, initializer),
    ...bytes(11, valueInfo('input_ids', INT64, [1, 'tokens'])),
    ...bytes(12, valueInfo('logits', FLOAT, [1, labels])),
  ];
  const model = [
    ...int(1, 8),
    ...str(2, 'mediagen-tests'),
    ...bytes(7, graph),
    ...bytes(8, [...str(1, ''), ...int(2, 13)]),
  ];
  return Buffer.from(model);
}
