// Generates Relay programs of real models into examples/relay/models/ (ResNet-18,
// ResNet-50, MobileNetV2, one BERT-base encoder layer, a 12-layer BERT-base encoder),
// built as Relay IR (frontends/relay/ast.ts) by a small builder and printed with
// printModule. The layout follows TVM's `from_pytorch` output: every weight is a
// parameter of @main (named after the PyTorch state dict, dots as underscores), one
// graph binding `%k = ...;` per call, attributes printed only where they differ from
// the default (except conv2d's channels and kernel_size, which TVM always sets).
//
// Run: node --import=tsx scripts/gen-models.ts
//
// Also exports `syntheticProgram(calls)` (a long, deterministic chain of calls, for
// benchmarks) and `generateModels()` (the files' texts, so a test can check that the
// committed files are up to date).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Attr, AttrValue, DimExpr, FunctionDef, Module, Param, RDim, RExpr, RType, Span } from '../frontends/relay/ast.js';
import { printModule } from '../frontends/relay/print.js';

// ─── Builder ─────────────────────────────────────────────────────────────────

/** Generated nodes have no source text; they all carry this span. */
const SPAN: Span = Object.freeze({
  file: '<generated>',
  start: Object.freeze({ offset: 0, line: 1, column: 1 }),
  end: Object.freeze({ offset: 0, line: 1, column: 1 }),
});

/** A dimension: an integer, or the name of a size variable (`n`). */
export type DimSpec = number | string;

function dim(d: DimSpec): RDim {
  if (typeof d === 'number') return { kind: 'int', value: d, span: SPAN };
  const expr: DimExpr = { kind: 'var', name: d };
  return { kind: 'sym', expr, span: SPAN };
}

/** `Tensor[(1, 3, 224, 224), float32]`; `tensor([], 'float32')` is the scalar `float32`. */
export function tensor(shape: readonly DimSpec[], dtype = 'float32'): RType {
  return { kind: 'tensor', shape: shape.map(dim), dtype, span: SPAN };
}

export function param(name: string, type: RType | null): Param {
  return { name, type, span: SPAN };
}

export function local(name: string): RExpr {
  return { kind: 'local', name, span: SPAN };
}

/** A reference to a parameter. */
export function ref(p: Param): RExpr {
  return local(p.name);
}

/** A float attribute value (a plain number is an int). */
export interface FloatAttr {
  readonly float: number;
}
export const float = (value: number): FloatAttr => ({ float: value });

export type AttrInput = number | boolean | string | readonly number[] | FloatAttr | null;

function attrValue(v: AttrInput): AttrValue {
  if (v === null) return { kind: 'none', span: SPAN };
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`attribute value ${v}: use float(...) for a float`);
    return { kind: 'int', value: v, span: SPAN };
  }
  if (typeof v === 'boolean') return { kind: 'bool', value: v, span: SPAN };
  if (typeof v === 'string') return { kind: 'string', value: v, span: SPAN };
  if (Array.isArray(v)) return { kind: 'list', items: v.map((x: number) => attrValue(x)), span: SPAN };
  return { kind: 'float', value: (v as FloatAttr).float, span: SPAN };
}

/** `op(args..., attr=value, ...)`, attributes in the order given. */
export function call(op: string, args: readonly RExpr[], attrs: Readonly<Record<string, AttrInput>> = {}): RExpr {
  const as: Attr[] = Object.entries(attrs).map(([name, v]) => ({ name, value: attrValue(v), span: SPAN }));
  return { kind: 'call', callee: { kind: 'op', name: op, span: SPAN }, args, attrs: as, span: SPAN };
}

/** A scalar constant: `0.125f`, `3`. */
export function constant(value: number, dtype = 'float32'): RExpr {
  return { kind: 'constant', value, dtype, span: SPAN };
}

export function proj(tuple: RExpr, index: number): RExpr {
  return { kind: 'proj', tuple, index, span: SPAN };
}

/**
 * A function body as a sequence of graph bindings `%0 = ...; %1 = ...;` then a result.
 * Bindings are numbered from 0 in order.
 */
export class Body {
  private readonly values: RExpr[] = [];

  /** Binds `value` to the next `%k` and returns `%k`. */
  bind(value: RExpr): RExpr {
    this.values.push(value);
    return local(String(this.values.length - 1));
  }

  /** The body: the bindings nested as lets (built from the end, without recursion), then `result`. */
  finish(result: RExpr): RExpr {
    let body = result;
    for (let i = this.values.length - 1; i >= 0; i--) {
      body = { kind: 'let', name: String(i), type: null, value: this.values[i]!, body, style: 'binding', span: SPAN };
    }
    return body;
  }

  /**
   * The body whose result is the last binding's value (as TVM prints it: the last call
   * is not bound). `last` must be the most recent `bind` result.
   */
  finishWithLast(last: RExpr): RExpr {
    const value = this.values.pop();
    if (value === undefined || last.kind !== 'local' || last.name !== String(this.values.length)) throw new Error('finishWithLast: not the last binding');
    return this.finish(value);
  }
}

export function fnDef(name: string, params: readonly Param[], ret: RType | null, body: RExpr): FunctionDef {
  return { name, typeParams: [], params, ret, body, span: SPAN };
}

export function module(functions: readonly FunctionDef[], file = '<generated>'): Module {
  return { file, version: '0.0.5', typeDefs: [], functions };
}

/** The printed module after a `//` comment header. */
function fileText(header: readonly string[], m: Module): string {
  return `${header.map((l) => `// ${l}`.trimEnd()).join('\n')}\n${printModule(m)}`;
}

/**
 * Builds @main: parameters are declared as they are first used (as TVM's frontends
 * order them), the input first.
 */
class Graph {
  readonly body = new Body();
  readonly params: Param[] = [];

  constructor(private readonly annotate: (kind: WeightKind) => boolean = () => true) {}

  /** A new parameter, annotated with `type` unless the policy leaves this kind of weight out. */
  param(name: string, type: RType, kind: WeightKind = 'input'): RExpr {
    if (this.params.some((p) => p.name === name)) throw new Error(`parameter %${name} declared twice`);
    const p = param(name, this.annotate(kind) ? type : null);
    this.params.push(p);
    return ref(p);
  }

  bind(value: RExpr): RExpr {
    return this.body.bind(value);
  }

  main(ret: RType | null, result: RExpr): FunctionDef {
    return fnDef('main', this.params, ret, this.body.finishWithLast(result));
  }
}

type WeightKind = 'input' | 'conv' | 'bn' | 'dense' | 'bias' | 'norm';

// ─── CNN pieces ──────────────────────────────────────────────────────────────

interface ConvSpec {
  /** Input channels. */
  readonly cin: number;
  readonly cout: number;
  readonly k: number;
  readonly stride?: number;
  readonly pad?: number;
  readonly groups?: number;
}

/** `nn.conv2d` without bias (as in torchvision's CNNs), weight `%{prefix}_weight`. */
function conv(g: Graph, x: RExpr, prefix: string, c: ConvSpec): RExpr {
  const groups = c.groups ?? 1;
  const w = g.param(`${prefix}_weight`, tensor([c.cout, c.cin / groups, c.k, c.k]), 'conv');
  const stride = c.stride ?? 1;
  const pad = c.pad ?? 0;
  const attrs: Record<string, AttrInput> = {};
  if (stride !== 1) attrs['strides'] = [stride, stride];
  attrs['padding'] = [pad, pad, pad, pad];
  if (groups !== 1) attrs['groups'] = groups;
  attrs['channels'] = c.cout;
  attrs['kernel_size'] = [c.k, c.k];
  return g.bind(call('nn.conv2d', [x, w], attrs));
}

/** `nn.batch_norm` (inference) and its `.0`; parameters `%{prefix}_weight/_bias/_running_mean/_running_var`. */
function batchNorm(g: Graph, x: RExpr, prefix: string, channels: number): RExpr {
  const vec = tensor([channels]);
  const args = ['weight', 'bias', 'running_mean', 'running_var'].map((n) => g.param(`${prefix}_${n}`, vec, 'bn'));
  const bn = g.bind(call('nn.batch_norm', [x, ...args]));
  return g.bind(proj(bn, 0));
}

function relu(g: Graph, x: RExpr): RExpr {
  return g.bind(call('nn.relu', [x]));
}

/** Global average pool, flatten, dense(classes) with bias, softmax: the common classifier head. */
function classifier(g: Graph, x: RExpr, prefix: string, features: number, classes: number): RExpr {
  const pooled = g.bind(call('nn.global_avg_pool2d', [x]));
  const flat = g.bind(call('nn.batch_flatten', [pooled]));
  const w = g.param(`${prefix}_weight`, tensor([classes, features]), 'dense');
  const b = g.param(`${prefix}_bias`, tensor([classes]), 'bias');
  const dense = g.bind(call('nn.dense', [flat, w], { units: classes }));
  const biased = g.bind(call('nn.bias_add', [dense, b], { axis: -1 }));
  return g.bind(call('nn.softmax', [biased]));
}

const IMAGENET_INPUT = tensor([1, 3, 224, 224]);
const IMAGENET_OUTPUT = tensor([1, 1000]);

// ─── ResNet ──────────────────────────────────────────────────────────────────

/**
 * ResNet-18 (basic blocks, [2, 2, 2, 2]) or ResNet-50 (bottlenecks, [3, 4, 6, 3]) as in
 * torchvision (v1.5: a bottleneck's stride is on its 3x3 conv), with a softmax head.
 */
export function resnet(depth: 18 | 50, annotate: (kind: WeightKind) => boolean = () => true): Module {
  const g = new Graph(annotate);
  const bottleneck = depth === 50;
  const blocks = bottleneck ? [3, 4, 6, 3] : [2, 2, 2, 2];
  const expansion = bottleneck ? 4 : 1;

  let x = g.param('input0', IMAGENET_INPUT);
  x = conv(g, x, 'conv1', { cin: 3, cout: 64, k: 7, stride: 2, pad: 3 });
  x = batchNorm(g, x, 'bn1', 64);
  x = relu(g, x);
  x = g.bind(call('nn.max_pool2d', [x], { pool_size: [3, 3], strides: [2, 2], padding: [1, 1, 1, 1] }));

  let cin = 64;
  blocks.forEach((count, layer) => {
    const width = 64 << layer;
    const cout = width * expansion;
    for (let i = 0; i < count; i++) {
      const stride = layer > 0 && i === 0 ? 2 : 1;
      const p = `layer${layer + 1}_${i}`;
      const identity = x;
      let y: RExpr;
      if (bottleneck) {
        y = conv(g, x, `${p}_conv1`, { cin, cout: width, k: 1 });
        y = relu(g, batchNorm(g, y, `${p}_bn1`, width));
        y = conv(g, y, `${p}_conv2`, { cin: width, cout: width, k: 3, stride, pad: 1 });
        y = relu(g, batchNorm(g, y, `${p}_bn2`, width));
        y = conv(g, y, `${p}_conv3`, { cin: width, cout, k: 1 });
        y = batchNorm(g, y, `${p}_bn3`, cout);
      } else {
        y = conv(g, x, `${p}_conv1`, { cin, cout, k: 3, stride, pad: 1 });
        y = relu(g, batchNorm(g, y, `${p}_bn1`, cout));
        y = conv(g, y, `${p}_conv2`, { cin: cout, cout, k: 3, pad: 1 });
        y = batchNorm(g, y, `${p}_bn2`, cout);
      }
      let shortcut = identity;
      if (stride !== 1 || cin !== cout) {
        shortcut = conv(g, identity, `${p}_downsample_0`, { cin, cout, k: 1, stride });
        shortcut = batchNorm(g, shortcut, `${p}_downsample_1`, cout);
      }
      x = relu(g, g.bind(call('add', [y, shortcut])));
      cin = cout;
    }
  });

  const out = classifier(g, x, 'fc', cin, 1000);
  return module([g.main(IMAGENET_OUTPUT, out)]);
}

// ─── MobileNetV2 ─────────────────────────────────────────────────────────────

/** torchvision's inverted residual settings: expansion t, channels c, repeats n, first stride s. */
const MOBILENET_V2_SETTINGS: readonly (readonly [number, number, number, number])[] = [
  [1, 16, 1, 1],
  [6, 24, 2, 2],
  [6, 32, 3, 2],
  [6, 64, 4, 2],
  [6, 96, 3, 1],
  [6, 160, 3, 2],
  [6, 320, 1, 1],
];

/**
 * MobileNetV2 (width 1.0, 224x224) as in torchvision. ReLU6 is written `nn.relu`, since
 * the catalogue has no `clip` (the shapes are the same); dropout is the identity at
 * inference and is left out; a softmax ends the classifier.
 */
export function mobilenetV2(): Module {
  const g = new Graph();
  let x = g.param('input0', IMAGENET_INPUT);
  // features.0: conv 3x3/2, 3 -> 32
  x = conv(g, x, 'features_0_0', { cin: 3, cout: 32, k: 3, stride: 2, pad: 1 });
  x = relu(g, batchNorm(g, x, 'features_0_1', 32));
  let cin = 32;
  let feature = 1;
  for (const [t, c, n, s] of MOBILENET_V2_SETTINGS) {
    for (let i = 0; i < n; i++) {
      const stride = i === 0 ? s : 1;
      const hidden = cin * t;
      const p = `features_${feature}_conv`;
      let y = x;
      let part = 0;
      if (t !== 1) {
        y = conv(g, y, `${p}_${part}_0`, { cin, cout: hidden, k: 1 });
        y = relu(g, batchNorm(g, y, `${p}_${part}_1`, hidden));
        part++;
      }
      // depthwise 3x3
      y = conv(g, y, `${p}_${part}_0`, { cin: hidden, cout: hidden, k: 3, stride, pad: 1, groups: hidden });
      y = relu(g, batchNorm(g, y, `${p}_${part}_1`, hidden));
      part++;
      // linear projection 1x1
      y = conv(g, y, `${p}_${part}`, { cin: hidden, cout: c, k: 1 });
      y = batchNorm(g, y, `${p}_${part + 1}`, c);
      x = stride === 1 && cin === c ? g.bind(call('add', [x, y])) : y;
      cin = c;
      feature++;
    }
  }
  // features.18: conv 1x1, 320 -> 1280
  x = conv(g, x, `features_${feature}_0`, { cin, cout: 1280, k: 1 });
  x = relu(g, batchNorm(g, x, `features_${feature}_1`, 1280));
  const out = classifier(g, x, 'classifier_1', 1280, 1000);
  return module([g.main(IMAGENET_OUTPUT, out)]);
}

// ─── BERT ────────────────────────────────────────────────────────────────────

const SEQ = 128;
const HIDDEN = 768;
const HEADS = 12;
const HEAD_DIM = HIDDEN / HEADS; // 64
const FFN = 3072;

/** `Tensor[(n, 128, 768), float32]`, with `n` the (symbolic) batch size. */
const BERT_HIDDEN = tensor(['n', SEQ, HIDDEN]);

/**
 * A linear layer on a `(n, 128, k)` activation, as TVM's frontends write it: reshape
 * to 2-d, dense, bias_add; the result is `(n*128, units)`.
 */
function linear2d(g: Graph, x2d: RExpr, prefix: string, inFeatures: number, units: number): RExpr {
  const w = g.param(`${prefix}_weight`, tensor([units, inFeatures]), 'dense');
  const b = g.param(`${prefix}_bias`, tensor([units]), 'bias');
  const d = g.bind(call('nn.dense', [x2d, w], { units }));
  return g.bind(call('nn.bias_add', [d, b], { axis: -1 }));
}

function layerNorm(g: Graph, x: RExpr, prefix: string): RExpr {
  const gamma = g.param(`${prefix}_weight`, tensor([HIDDEN]), 'norm');
  const beta = g.param(`${prefix}_bias`, tensor([HIDDEN]), 'norm');
  return g.bind(call('nn.layer_norm', [x, gamma, beta], { epsilon: float(1e-12) }));
}

/**
 * One BERT-base encoder layer (post-norm, as in BERT): multi-head self-attention with
 * an additive attention mask, residual, layer norm, feed-forward (GELU written as
 * `nn.relu`: the catalogue has no gelu; the shapes are the same), residual, layer norm.
 * `x` is `(n, 128, 768)`; `mask` is `(n, 1, 1, 128)`.
 */
function bertLayer(g: Graph, x: RExpr, mask: RExpr, layer: number): RExpr {
  const p = `encoder_layer_${layer}`;
  const x2d = g.bind(call('reshape', [x], { newshape: [-1, HIDDEN] })); // (n*128, 768)
  // (n*128, 768) -> (n, 128, 12, 64) -> (n, 12, 128, 64) -> (n*12, 128, 64)
  const heads = (name: string): RExpr => {
    const lin = linear2d(g, x2d, `${p}_attention_self_${name}`, HIDDEN, HIDDEN);
    const split = g.bind(call('reshape', [lin], { newshape: [-1, SEQ, HEADS, HEAD_DIM] }));
    const t = g.bind(call('transpose', [split], { axes: [0, 2, 1, 3] }));
    return g.bind(call('reshape', [t], { newshape: [-1, SEQ, HEAD_DIM] }));
  };
  const q = heads('query');
  const k = heads('key');
  const v = heads('value');
  // scores: (n*12, 128, 128), scaled by 1/sqrt(64), masked per batch element
  const qk = g.bind(call('nn.batch_matmul', [q, k], { transpose_b: true }));
  const scaled = g.bind(call('multiply', [qk, constant(1 / Math.sqrt(HEAD_DIM))]));
  const scores4 = g.bind(call('reshape', [scaled], { newshape: [-1, HEADS, SEQ, SEQ] }));
  const masked = g.bind(call('add', [scores4, mask]));
  const probs = g.bind(call('nn.softmax', [masked], { axis: -1 }));
  const probs3 = g.bind(call('reshape', [probs], { newshape: [-1, SEQ, SEQ] }));
  // context: (n*12, 128, 64) -> (n, 12, 128, 64) -> (n, 128, 12, 64) -> (n, 128, 768)
  const ctx = g.bind(call('nn.batch_matmul', [probs3, v], { transpose_b: false }));
  const ctx4 = g.bind(call('reshape', [ctx], { newshape: [-1, HEADS, SEQ, HEAD_DIM] }));
  const ctxT = g.bind(call('transpose', [ctx4], { axes: [0, 2, 1, 3] }));
  const merged = g.bind(call('reshape', [ctxT], { newshape: [0, 0, -1] }));
  // output projection, residual, layer norm
  const merged2d = g.bind(call('reshape', [merged], { newshape: [-1, HIDDEN] }));
  const out = linear2d(g, merged2d, `${p}_attention_output_dense`, HIDDEN, HIDDEN);
  const out3 = g.bind(call('reshape', [out], { newshape: [-1, SEQ, HIDDEN] }));
  const res1 = g.bind(call('add', [out3, x]));
  const attn = layerNorm(g, res1, `${p}_attention_output_LayerNorm`);
  // feed-forward
  const a2d = g.bind(call('reshape', [attn], { newshape: [-1, HIDDEN] }));
  const inter = linear2d(g, a2d, `${p}_intermediate_dense`, HIDDEN, FFN);
  const act = g.bind(call('nn.relu', [inter]));
  const down = linear2d(g, act, `${p}_output_dense`, FFN, HIDDEN);
  const down3 = g.bind(call('reshape', [down], { newshape: [-1, SEQ, HIDDEN] }));
  const res2 = g.bind(call('add', [down3, attn]));
  return layerNorm(g, res2, `${p}_output_LayerNorm`);
}

/** `layers` BERT-base encoder layers in one @main, each with its own weights. */
export function bertEncoder(layers: number): Module {
  const g = new Graph();
  let x = g.param('input0', BERT_HIDDEN);
  const mask = g.param('attention_mask', tensor(['n', 1, 1, SEQ]));
  for (let l = 0; l < layers; l++) x = bertLayer(g, x, mask, l);
  return module([g.main(BERT_HIDDEN, x)]);
}

// ─── Synthetic chains ────────────────────────────────────────────────────────

/**
 * A deterministic chain of `calls` operator calls on a `(16, 64)` tensor, one graph
 * binding per call, cycling through dense, add (bias), relu, reshape, transpose,
 * multiply (by a scalar), reshape, add (residual). After each full cycle of 8 calls
 * the value is `(16, 64)` again; the result is the last call.
 */
export function syntheticProgram(calls: number): string {
  if (!Number.isSafeInteger(calls) || calls < 1) throw new Error(`syntheticProgram: calls must be a positive integer, not ${calls}`);
  const x = param('x', tensor([16, 64]));
  const w = param('w', tensor([64, 64]));
  const b = param('b', tensor([64]));
  const body = new Body();
  let v = ref(x);
  let last: RExpr = v;
  for (let i = 0; i < calls; i++) {
    let value: RExpr;
    switch (i % 8) {
      case 0:
        value = call('nn.dense', [v, ref(w)], { units: 64 });
        break;
      case 1:
        value = call('add', [v, ref(b)]);
        break;
      case 2:
        value = call('nn.relu', [v]);
        break;
      case 3:
        value = call('reshape', [v], { newshape: [4, 4, 64] });
        break;
      case 4:
        value = call('transpose', [v], { axes: [1, 0, 2] });
        break;
      case 5:
        value = call('multiply', [v, constant(0.5)]);
        break;
      case 6:
        value = call('reshape', [v], { newshape: [-1, 64] });
        break;
      default:
        value = call('add', [v, ref(x)]);
        break;
    }
    last = value;
    if (i < calls - 1) v = body.bind(value);
  }
  const m = module([fnDef('main', [x, w, b], null, body.finish(last))]);
  return fileText([`Generated by scripts/gen-models.ts: a synthetic chain of ${calls} operator calls.`], m);
}

// ─── The model files ─────────────────────────────────────────────────────────

export interface GeneratedModel {
  /** The file name in examples/relay/models/. */
  readonly name: string;
  readonly module: Module;
  readonly text: string;
}

const GENERATED = 'Generated by scripts/gen-models.ts (node --import=tsx scripts/gen-models.ts); do not edit.';

/** Every model file, in memory. */
export function generateModels(): GeneratedModel[] {
  const model = (name: string, description: readonly string[], m: Module): GeneratedModel => ({
    name,
    module: m,
    text: fileText([GENERATED, ...description], m),
  });
  return [
    model(
      'resnet18.relay',
      [
        'ResNet-18 (torchvision), ImageNet 1x3x224x224 NCHW float32: conv 7x7/2, max pool 3x3/2,',
        '4 stages of 2 basic blocks (64, 128, 256, 512 channels; 1x1 projection shortcuts),',
        'global average pool, dense 1000, softmax. Every weight is an annotated parameter.',
      ],
      resnet(18),
    ),
    model(
      'resnet18_partial.relay',
      [
        'ResNet-18 as in resnet18.relay, but no conv weight and no batch_norm parameter is annotated:',
        'their types must be inferred backwards from conv2d channels/kernel_size and from the data.',
      ],
      resnet(18, (kind) => kind !== 'conv' && kind !== 'bn'),
    ),
    model(
      'resnet50.relay',
      [
        'ResNet-50 (torchvision v1.5), ImageNet 1x3x224x224 NCHW float32: conv 7x7/2, max pool 3x3/2,',
        '4 stages of 3, 4, 6, 3 bottleneck blocks (1x1, 3x3 with the stride, 1x1; 256, 512, 1024,',
        '2048 output channels; 1x1 projection shortcuts), global average pool, dense 1000, softmax.',
      ],
      resnet(50),
    ),
    model(
      'mobilenetv2.relay',
      [
        'MobileNetV2 1.0 (torchvision), ImageNet 1x3x224x224 NCHW float32: conv 3x3/2 (32), 17 inverted',
        'residual blocks (1x1 expansion, 3x3 depthwise with groups = channels, 1x1 projection; residual',
        'add at stride 1 with equal channels), conv 1x1 (1280), global average pool, dense 1000, softmax.',
        'ReLU6 is written nn.relu (no clip in the catalogue).',
      ],
      mobilenetV2(),
    ),
    model(
      'bert_layer.relay',
      [
        'One BERT-base encoder layer (hidden 768, 12 heads of 64, FFN 3072, sequence length 128) over a',
        'symbolic batch n, laid out as TVM frontends export it: linear layers as reshape to 2-d + dense +',
        'bias_add, heads by reshape/transpose, batch_matmul for attention, additive mask, layer_norm.',
        'GELU is written nn.relu (no gelu in the catalogue).',
      ],
      bertEncoder(1),
    ),
    model(
      'bert12.relay',
      [
        'A 12-layer BERT-base encoder (the layer of bert_layer.relay repeated, each layer with its own',
        'weights) over a symbolic batch n and sequence length 128.',
      ],
      bertEncoder(12),
    ),
  ];
}

export const MODELS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'relay', 'models');

function main(): void {
  mkdirSync(MODELS_DIR, { recursive: true });
  for (const m of generateModels()) {
    const path = join(MODELS_DIR, m.name);
    writeFileSync(path, m.text);
    console.log(`wrote ${path} (${m.text.split('\n').length - 1} lines)`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
