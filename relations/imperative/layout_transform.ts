// The imperative twin of layout_transform, after TVM's LayoutTransformRel
// (src/relay/op/tensor/transform.cc) and tir's BijectiveLayout (the shape map):
//
//   LayoutTransform(data; src_layout, dst_layout): each primal axis X has extent
//   dim(X) * factor(x in src_layout) (1 without a sub-axis); the result has, per axis
//   of dst_layout, extent(X) / factor(x in dst_layout) for a primal axis X and the
//   factor for a sub-axis x; dtype data's.
//
// Layouts are parsed by relations/layout.ts (the one parser). Deviations from TVM (as
// relations/layout-transform.rules):
//  - an axis split by dst_layout must be divisible by the factor (TVM floors the
//    division and drops elements); an undecided symbolic condition is a residual
//    assumption;
//  - the dim of a sub-axis of src_layout must equal its factor (TVM ignores the dim).
// A hole among the data's dims makes the relation wait without a result (as the rules,
// which derive the result once every dim is known); Any dims give Any.
import { type LayoutAxis, parseLayout, primalKey } from '../layout.js';
import { Pending, dDiv, dMod, dMul, expectTensor, finish, getString } from './common.js';
import { type RelationFn, isError } from './relation.js';
import { type IDim, intDim, printDim, printType, tensorType } from './types.js';

/** The factor of X's sub-axis among `axes`, 1 without one. */
function factorOf(axes: readonly LayoutAxis[], x: string): number {
  return axes.find((a) => a.factor !== null && a.primal === x)?.factor ?? 1;
}

export const layoutTransformRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const srcText = getString(attrs, 'src_layout');
  const dstText = getString(attrs, 'dst_layout');
  const src = parseLayout(srcText);
  if (!src.ok) return r.fail(`src_layout "${srcText}" is invalid: ${src.reason}`);
  const dst = parseLayout(dstText);
  if (!dst.ok) return r.fail(`dst_layout "${dstText}" is invalid: ${dst.reason}`);
  if (primalKey(src.axes) !== primalKey(dst.axes)) return r.fail(`cannot convert from "${srcText}" to "${dstText}": their primal axes differ`);
  if (data.shape.length !== src.axes.length) return r.fail(`the data has rank ${data.shape.length}, but src_layout "${srcText}" has ${src.axes.length} axes`);
  const pending = new Pending();
  // a sub-axis of src_layout holds exactly its factor
  for (const [j, a] of src.axes.entries()) {
    if (a.factor === null) continue;
    const d = data.shape[j]!;
    if (d.kind === 'hole') continue;
    const e = pending.check(
      r.require(
        d,
        '==',
        intDim(a.factor),
        `dim ${j} of the data is ${printDim(d)}, but it is the sub-axis of ${a.primal} with factor ${a.factor} in src_layout "${srcText}" (${printType(data)})`,
      ),
      'a dim of the data is not known yet',
    );
    if (e) return e;
  }
  if (data.shape.some((d) => d.kind === 'hole')) return r.wait('a dim of the data is not known yet');
  const extent = new Map<string, IDim>();
  src.axes.forEach((a, j) => {
    if (a.factor === null) extent.set(a.primal, dMul(data.shape[j]!, factorOf(src.axes, a.primal)));
  });
  const shape: IDim[] = [];
  for (const a of dst.axes) {
    if (a.factor !== null) {
      const e = extent.get(a.primal)!;
      const c = pending.check(
        r.require(
          dMod(e, a.factor),
          '==',
          intDim(0),
          `axis ${a.primal} of extent ${printDim(e)} is not divisible by the factor ${a.factor} of dst_layout "${dstText}"`,
        ),
        'a dim of the data is not known yet',
      );
      if (c) return c;
      shape.push(intDim(a.factor));
    } else shape.push(dDiv(extent.get(a.primal)!, factorOf(dst.axes, a.primal)));
  }
  const built = tensorType(shape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  LayoutTransform: layoutTransformRel,
};
