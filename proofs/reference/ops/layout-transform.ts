// Reference executor for relations/layout-transform.rules: layout_transform moves every
// element of a concrete tensor from its place in src_layout to its place in
// dst_layout, through relations/layout.ts's index maps over a common canonical
// layout (the primal axes in alphabetical order): out[i] = data[packed_src(primal_dst(i))].
// The result's shape is the dst packing of the primal shape. It refuses what it cannot
// move: a layout that does not parse, layouts of different primal axes, a rank that
// is not src_layout's, a src sub-axis whose dim is not its factor (the data would not
// be src-packed), and a primal extent that dst_layout's factor does not divide (some
// elements would have no place).
import { layoutView, packedIndex, packedShape, primalIndex, primalShape } from '../../../relations/layout.js';
import type { Executor, Stricter } from '../executor.js';
import { asTensor, build, refuse } from '../tensor.js';

const layoutTransform: Executor = ([x], attrs) => {
  const data = asTensor(x, 'data');
  const src = String(attrs['src_layout']);
  const dst = String(attrs['dst_layout']);
  const canonical = [...new Set(src.replace(/[^A-Z]/g, ''))].sort().join('');
  const from = layoutView(src, canonical);
  if (typeof from === 'string') refuse(from);
  const to = layoutView(dst, canonical);
  if (typeof to === 'string') refuse(to);
  if (data.shape.length !== from.axes.length) refuse(`rank ${data.shape.length} data in a layout of ${from.axes.length} axes`);
  for (const s of from.subs) if (data.shape[s.at] !== s.factor) refuse(`dim ${s.at} is ${data.shape[s.at]}, not the factor ${s.factor} of its sub-axis`);
  const primal = primalShape(from, data.shape);
  const shape = packedShape(to, primal);
  if (typeof shape === 'string') refuse(shape);
  return build(shape, data.dtype, (i) => data.get(packedIndex(from, primalIndex(to, i))));
};

export const EXECUTORS: Readonly<Record<string, Executor>> = {
  layout_transform: layoutTransform,
};

/** The relation rejects nothing the executor runs (their refusals are the same). */
export const STRICTER: Readonly<Record<string, Stricter>> = {};
