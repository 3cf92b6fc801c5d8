// Shape-transforming relations after TVM's src/relay/op/tensor/transform.cc and
// transform.h: Reshape, ReverseReshape, ReshapeLike, Transpose, Concatenate, Stack,
// Split, StridedSlice, SliceLike, ExpandDims, Squeeze, Tile, Repeat, Reverse, Pad
// (src/relay/op/nn/pad.cc), BroadcastTo, Take.
//
//   Reshape(data; newshape, allowzero): TVM's InferNewShape. newshape values:
//     > 0 that size; 0 copy the input dimension at the same position (a literal
//     0 when allowzero); -1 infer from the remaining size (at most one); -2 copy
//     all remaining input dimensions; -3 merge the next two input dimensions;
//     -4 split the next input dimension into the two values that follow (one may
//     be -1). A positive value and -1 also advance the input position (as TVM).
//     The element counts must agree.
//   Transpose(data; axes): axes None reverses; else a permutation of the axes.
//   Concatenate(data: a tuple; axis): same rank and dtype; non-axis dimensions
//     agree (Any is skipped); the axis dimension is the sum (Any if any is Any).
//   Split(data; indices_or_sections, axis): N equal sections (the dimension must
//     be divisible by N), or at strictly increasing indices (> 0, and the last
//     < the dimension): a tuple of N, or len(indices) + 1, tensors.
//   ExpandDims(data; axis, num_newaxis): axis in [-ndim - 1, ndim].
//   Squeeze(data; axis): None removes every dimension equal to 1; else the given
//     axes, whose dimensions must be 1 (Any is accepted, as TVM).
//   Take(data, indices; axis, batch_dims, mode): axis None → the indices' shape;
//     else data[:axis] + indices[batch_dims:] + data[axis+1:]; indices must have
//     an integer dtype; the result has data's dtype.
//   ReverseReshape(data; newshape): Reshape of the reversed input shape by the
//     reversed newshape (allowzero false), the result reversed back.
//   ReshapeLike(data, shape_like; lhs_begin, lhs_end, rhs_begin, rhs_end):
//     data[:lb] + shape_like[rb:re] + data[le:] (negative + rank, None = rank);
//     element counts agree.
//   Stack(data: a tuple; axis): every field has the first one's type; a dim of
//     size len(data) is inserted at axis in [-ndim - 1, ndim].
//   StridedSlice(data; begin, end, strides, axes, slice_mode): topi's
//     StridedSliceOutputShape: per sliced axis of dim d with step s, begin and end
//     get d added when negative and are clamped to [0, d] (s > 0) or [-1, d - 1]
//     (s < 0); length max(ceil((e - b) / s), 0). Without axes, missing entries
//     default to begin 0 (s > 0) or int64 max (s < 0), end int64 max (s > 0) or 0
//     (s < 0), stride 1. slice_mode "size": end is a size (-1 = to the end), the
//     strides are 1.
//   SliceLike(data, shape_like; axes): dims of data replaced by those of shape_like
//     on axes (None: the first min(ranks)); each must be <= data's.
//   Tile(data; reps): shape and reps padded with leading 1s, multiplied.
//   Repeat(data; repeats, axis): dim axis times repeats.
//   Reverse(data; axis): data's type; axis in [-ndim, ndim).
//   Pad(data, pad_val; pad_width, pad_value, pad_mode): dim + before + after per axis.
//   BroadcastTo(data; shape): Tensor[shape, data.dtype]; data's shape (aligned at
//     the right) broadcasts to shape.
//
// Deviations from TVM:
//  - Reshape: -1 placed after -2/-3/-4 is inferred at its OUTPUT position (TVM
//    uses its index in newshape, which puts the inferred size in the wrong place,
//    e.g. (-2, -1) on (2, 3, 4)); the -1 size must divide exactly (TVM floors);
//    the two sizes after -4 must multiply to the split dimension (TVM only checks
//    the total); the total element count is checked for symbolic shapes too
//    (residual when undecided; TVM skips every non-constant shape); malformed
//    newshape values are errors, not crashes (those of newshape alone before
//    data is known); a size merged (-3), split (-4 with -1) or inferred (-1)
//    from a hole waits without assigning anything (as the rules); a copied hole
//    is copied.
//  - Transpose: as TVM (duplicate and out-of-range axes are errors).
//  - Concatenate: non-axis dimensions are unified (holes bind, symbolic sizes give
//    residuals such as `n = 3`; TVM's AssertEQ passes symbolic ones silently);
//    the ranks and dtypes of the known fields and the axis (against data.0) are
//    checked before the other fields are known; an axis sum that depends on a
//    hole waits without assigning anything (as the rules).
//  - Split: an undecided divisibility (`n % 2 = 0`) or bound (`n > 4`) is a
//    residual assumption (TVM's reporter->Assert passes it silently); an empty
//    indices list gives one piece, the whole tensor, also for a dimension of 0
//    (TVM asserts 0 < dim); a piece size that depends on a hole waits.
//  - Squeeze: duplicate axes are errors (TVM accepts them); a symbolic dimension
//    squeezed explicitly is unified with 1 (residual `n = 1`; TVM passes it
//    silently); a hole squeezed explicitly is bound to 1. With axis None TVM
//    fails on any non-constant dimension; here symbolic dimensions that are
//    provably 1 or provably not 1 are decided, a lone size variable (`n`, never
//    decidable) and Any (it may be 1 at run time) are errors, other undecided
//    ones make the relation wait, holes wait.
//  - Take: axis must be in [-ndim, ndim) (TVM accepts axis == ndim); a negative
//    batch_dims is normalised against the indices' rank (TVM adds it to the axis
//    by mistake); the leading batch_dims dimensions of data and indices are
//    unified (TVM does not check them); a dtype hole in indices waits for the
//    check; the checks on one argument (axis against data; dtype and batch_dims
//    against indices) are made before the other is known.
//  - ReverseReshape: -4 is an error (TVM applies it to the reversed newshape);
//    otherwise as Reshape.
//  - ReshapeLike: begin/end out of range or begin > end are errors (TVM reads out
//    of bounds); the element counts are checked for symbolic shapes too (residual).
//  - Stack: fields are unified with the first (symbolic dims give residuals; TVM's
//    AssertEQ passes them silently); an empty tuple is an error.
//  - StridedSlice: an empty slice has size 0 (TVM's ICHECK rejects begin past end);
//    symbolic dims are sliced exactly with symbolic min/max (TVM gives Any); a 0
//    stride is an error in both modes; begin/end/strides longer than the rank are
//    errors; with axes, strides None means 1 on every axis, negative axes are
//    normalised, out-of-range and duplicate axes are errors. A sliced dimension
//    that is a hole makes the relation wait without assigning anything.
//  - SliceLike: duplicate and out-of-range axes are errors; the bound is decided
//    three-valued (residual when undecided).
//  - Repeat: axis in [-ndim, ndim) (TVM admits -ndim - 1 and ndim, then crashes).
//  - Pad: pad_width is a flat list [b0, a0, b1, a1, ...]; a negative pad crops,
//    and a padded dim must stay >= 0 (also when symbolic: a residual when
//    undecided; TVM checks constant dims only); pad_val (TVM's second argument)
//    may be left out for the older pad_value attribute, and must be a scalar when
//    given (TVM does not check it); edge mode needs dim >= 1 where it pads,
//    reflect mode pads < dim (residuals when symbolic).
//  - BroadcastTo: a symbolic dim provably not 1 must equal the target (residual);
//    one that may be 1 or the target is accepted (the disjunction cannot be a
//    residual); TVM rejects symbolic dims it cannot prove equal.
//  - Tile, Repeat, Pad: a dimension that is a hole makes the relation wait without
//    assigning anything (as the rules, whose arithmetic waits on holes).

import type { IDim, IType, TensorType } from './types.js';
import type { RelError, RelationFn, Reporter } from './relation.js';
import {
  Pending,
  compareDims,
  dDiv,
  dMod,
  dMul,
  dProduct,
  dSub,
  dAdd,
  expectTensor,
  finish,
  getBool,
  getInt,
  getIntOrNull,
  getInts,
  getIntsOrNull,
  getString,
  hasOpen,
  isInt,
  isIntAttr,
  normAxes,
  normAxis,
  shapeText,
} from './common.js';
import { isError } from './relation.js';
import { ANY, OPEN, dimOf, dimValue, intDim, isIntDtype, printDim, printType, tensorType, tupleType } from './types.js';
import { type Dim, dimAsVariable, dimMax, dimMin } from '../../solver/terms/dims.js';

// ─── reshape ─────────────────────────────────────────────────────────────────

/**
 * TVM's InferNewShape: the output shape of `newshape` read left to right against
 * `ishape` (reshape; reverse_reshape passes both reversed). Checks the element counts.
 */
function inferReshape(
  r: Reporter,
  data: TensorType,
  ishape: readonly IDim[],
  newshape: readonly number[],
  allowzero: boolean,
  ns: string,
  pending: Pending,
): IDim[] | RelError {
  const rank = ishape.length;
  const oshape: IDim[] = [];
  const usedIn = new Set<number>();
  const usedOut = new Set<number>();
  let src = 0;
  let inferAt = -1;
  for (let i = 0; i < newshape.length; i++) {
    const v = newshape[i]!;
    if (v > 0) {
      oshape.push(intDim(v));
      src++;
    } else if (v === 0) {
      if (allowzero) {
        oshape.push(intDim(0));
        src++;
        continue;
      }
      if (src >= rank) return r.fail(`newshape ${ns}: the 0 at position ${i} copies input dimension ${src}, but data ${printType(data)} has rank ${rank}`);
      usedIn.add(src);
      usedOut.add(oshape.length);
      oshape.push(ishape[src++]!);
    } else if (v === -1) {
      if (inferAt >= 0) return r.fail(`newshape ${ns} may contain at most one -1`);
      inferAt = oshape.length;
      oshape.push(intDim(1));
      src++;
    } else if (v === -2) {
      while (src < rank) {
        usedIn.add(src);
        usedOut.add(oshape.length);
        oshape.push(ishape[src++]!);
      }
    } else if (v === -3) {
      if (src + 1 >= rank)
        return r.fail(`newshape ${ns}: the -3 at position ${i} merges input dimensions ${src} and ${src + 1}, but data ${printType(data)} has rank ${rank}`);
      usedIn.add(src).add(src + 1);
      usedOut.add(oshape.length);
      oshape.push(dMul(ishape[src]!, ishape[src + 1]!));
      src += 2;
    } else if (v === -4) {
      if (i + 2 >= newshape.length) return r.fail(`newshape ${ns}: the -4 at position ${i} must be followed by two sizes`);
      if (src >= rank) return r.fail(`newshape ${ns}: the -4 at position ${i} splits input dimension ${src}, but data ${printType(data)} has rank ${rank}`);
      const d0 = ishape[src]!;
      usedIn.add(src++);
      const d1 = newshape[++i]!;
      const d2 = newshape[++i]!;
      if (d1 === -1 && d2 === -1) return r.fail(`newshape ${ns}: the two sizes after -4 cannot both be -1`);
      if ((d1 < 1 && d1 !== -1) || (d2 < 1 && d2 !== -1)) return r.fail(`newshape ${ns}: the two sizes after -4 must be positive or -1`);
      let parts: [IDim, IDim];
      if (d1 === -1 || d2 === -1) {
        const known = d1 === -1 ? d2 : d1;
        const e = pending.check(
          r.require(dMod(d0, known), '==', intDim(0), `newshape ${ns}: input dimension ${printDim(d0)} cannot be split by ${known}`),
          'the dimension to split is not known yet',
        );
        if (e) return e;
        parts = d1 === -1 ? [dDiv(d0, known), intDim(known)] : [intDim(known), dDiv(d0, known)];
      } else {
        const e = pending.check(
          r.require(d0, '==', dMul(d1, d2), `newshape ${ns}: input dimension ${printDim(d0)} cannot be split into ${d1} x ${d2}`),
          'the dimension to split is not known yet',
        );
        if (e) return e;
        parts = [intDim(d1), intDim(d2)];
      }
      usedOut.add(oshape.length).add(oshape.length + 1);
      oshape.push(...parts);
    } else {
      return r.fail(`newshape ${ns}: ${v} is not a size or a special value (0, -1, -2, -3, -4)`);
    }
  }

  if (inferAt >= 0) {
    // other output sizes multiplying to 0 leave -1 undetermined (TVM would divide by 0; numpy refuses)
    if (isInt(dProduct(oshape.filter((_, j) => j !== inferAt)), 0)) return r.fail(`newshape ${ns}: cannot infer -1 when the other sizes multiply to 0`);
    const restIn = ishape.filter((_, j) => !usedIn.has(j));
    const restOut = oshape.filter((_, j) => !usedOut.has(j) && j !== inferAt);
    if (restIn.some((d) => d.kind === 'any') || restOut.some((d) => d.kind === 'any')) {
      oshape[inferAt] = ANY;
    } else {
      const p = dProduct(restIn);
      const q = dProduct(restOut);
      if (isInt(q, 0)) return r.fail(`newshape ${ns}: cannot infer -1 when the other sizes multiply to 0`);
      const e = pending.check(
        r.require(dMod(p, q), '==', intDim(0), `newshape ${ns}: cannot infer -1: the remaining input size ${printDim(p)} is not divisible by ${printDim(q)}`),
        'some input dimensions are not known yet',
      );
      if (e) return e;
      oshape[inferAt] = dDiv(p, q);
    }
  }

  // With a -1, the divisibility check above already makes the sizes agree (the
  // other output sizes are copies, products or checked splits of input sizes).
  if (inferAt < 0 && !ishape.some((d) => d.kind === 'any') && !oshape.some((d) => d.kind === 'any')) {
    const inSize = dProduct(ishape);
    const outSize = dProduct(oshape);
    const e = pending.check(
      r.require(
        outSize,
        '==',
        inSize,
        `newshape ${ns} gives ${shapeText(oshape)} with ${printDim(outSize)} elements, but data ${printType(data)} has ${printDim(inSize)}`,
      ),
      'some input dimensions are not known yet',
    );
    if (e) return e;
  }
  return oshape;
}

/** The errors of newshape alone (checked before data is known): two -1s, a malformed -4. */
function newshapeError(r: Reporter, newshape: readonly number[], ns: string): RelError | null {
  let minus1 = 0;
  for (let i = 0; i < newshape.length; i++) {
    const v = newshape[i]!;
    if (v === -1) minus1++;
    if (v !== -4) continue;
    const [d1, d2] = [newshape[i + 1], newshape[i + 2]];
    if (d1 === undefined || d2 === undefined) return r.fail(`newshape ${ns}: the -4 at position ${i} must be followed by two sizes`);
    if (d1 === -1 && d2 === -1) return r.fail(`newshape ${ns}: the two sizes after -4 cannot both be -1`);
    if ((d1 < 1 && d1 !== -1) || (d2 < 1 && d2 !== -1)) return r.fail(`newshape ${ns}: the two sizes after -4 must be positive or -1`);
    i += 2;
  }
  return minus1 > 1 ? r.fail(`newshape ${ns} may contain at most one -1`) : null;
}

export const reshapeRel: RelationFn = (args, out, attrs, r) => {
  const newshape = getInts(attrs, 'newshape');
  const allowzero = getBool(attrs, 'allowzero');
  const ns = `[${newshape.join(', ')}]`;
  const bad = newshapeError(r, newshape, ns);
  if (bad) return bad;
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const pending = new Pending();
  const oshape = inferReshape(r, data, data.shape, newshape, allowzero, ns, pending);
  if (isError(oshape)) return oshape;
  // a merged (-3), split (-4) or inferred (-1) size that depends on a hole: wait without assigning (as the rules)
  if (oshape.some((d) => d.kind === 'open')) return r.wait('some input dimensions are not known yet');
  const built = tensorType(oshape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

// ─── reverse_reshape ─────────────────────────────────────────────────────────

export const reverseReshapeRel: RelationFn = (args, out, attrs, r) => {
  const newshape = getInts(attrs, 'newshape');
  const ns = `[${newshape.join(', ')}]`;
  if (newshape.includes(-4)) return r.fail(`newshape ${ns}: reverse_reshape does not support -4`);
  if (newshape.filter((v) => v === -1).length > 1) return r.fail(`newshape ${ns} may contain at most one -1`);
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const pending = new Pending();
  const reversed = inferReshape(r, data, [...data.shape].reverse(), [...newshape].reverse(), false, ns, pending);
  if (isError(reversed)) return reversed;
  if (reversed.some((d) => d.kind === 'open')) return r.wait('some input dimensions are not known yet');
  const built = tensorType([...reversed].reverse(), data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

// ─── transpose ───────────────────────────────────────────────────────────────

export const transposeRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const ndim = data.shape.length;
  const given = getIntsOrNull(attrs, 'axes');
  let axes: number[];
  if (given === null) axes = data.shape.map((_, i) => ndim - 1 - i);
  else {
    if (given.length !== ndim) return r.fail(`axes [${given.join(', ')}] has ${given.length} entries, but data ${printType(data)} has rank ${ndim}`);
    const n = normAxes(r, given, ndim, 'axes');
    if (isError(n)) return n;
    axes = n;
  }
  return (
    r.assign(
      out,
      tensorType(
        axes.map((a) => data.shape[a]!),
        data.dtype,
      ),
      'the result',
    ) ?? 'done'
  );
};

// ─── concatenate ─────────────────────────────────────────────────────────────

export const concatenateRel: RelationFn = (args, out, attrs, r) => {
  const t = args[0]!;
  if (t.kind === 'hole') return r.wait('the type of data is not known yet');
  if (t.kind !== 'tuple') return r.fail(`data must be a tuple of tensors, got ${printType(t)}`);
  if (t.fields.length === 0) return r.fail('data must be a non-empty tuple of tensors');
  for (const [i, f] of t.fields.entries()) {
    if (f.kind !== 'tensor' && f.kind !== 'hole') return r.fail(`data.${i} must be a tensor, got ${printType(f)}`);
  }
  // the checks on the known fields come first, even when others are not known yet (as the rules)
  const first0 = t.fields[0]!;
  let axis = 0;
  if (first0.kind === 'tensor') {
    for (const [i, f] of t.fields.entries()) {
      if (f.kind !== 'tensor') continue;
      if (f.shape.length !== first0.shape.length)
        return r.fail(`all tensors must have the same rank: data.0 is ${printType(first0)}, data.${i} is ${printType(f)}`);
      if (typeof f.dtype === 'string' && typeof first0.dtype === 'string' && f.dtype !== first0.dtype)
        return r.fail(`all tensors must have the same dtype: data.0 is ${printType(first0)}, data.${i} is ${printType(f)}`);
    }
    const n = normAxis(r, getInt(attrs, 'axis'), first0.shape.length, 'axis');
    if (isError(n)) return n;
    axis = n;
  }
  if (t.fields.some((f) => f.kind === 'hole')) return r.wait('the types of some tuple fields are not known yet');
  const fields = t.fields as TensorType[];
  const first = fields[0]!;
  const ndim = first.shape.length;
  for (const [i, f] of fields.entries()) {
    const e = r.assignDtype(f.dtype, first.dtype, `all tensors must have the same dtype: data.0 vs data.${i}`);
    if (e) return e;
  }
  const cur = (r.resolve(t) as { fields: readonly TensorType[] }).fields;
  const concatDims = cur.map((f) => f.shape[axis]!);
  const dynamic = concatDims.some((d) => d.kind === 'any');
  const oshape: IDim[] = [];
  for (let i = 0; i < ndim; i++) {
    if (i === axis) {
      oshape.push(dynamic ? ANY : concatDims.reduce<IDim>((acc, d) => dAdd(acc, d), intDim(0)));
      continue;
    }
    const nonAny = cur.map((f) => f.shape[i]!).filter((d) => d.kind !== 'any');
    for (const d of nonAny.slice(1)) {
      const e = r.assignDim(d, nonAny[0]!, `the tensors differ in dimension ${i} (not the concatenation axis ${axis})`);
      if (e) return e;
    }
    if (nonAny.length === cur.length || (nonAny.length > 0 && dynamic)) oshape.push(nonAny[0]!);
    else oshape.push(ANY);
  }
  // the axis size depends on a hole: wait without assigning (as the rules, whose sum waits)
  if (oshape[axis]!.kind === 'open') return r.wait('a dimension along the axis is not known yet');
  const built = tensorType(oshape, first.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, new Pending(), built);
};

// ─── split ───────────────────────────────────────────────────────────────────

export const splitRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  if (data.shape.length === 0) return r.fail(`data must have rank >= 1, got ${printType(data)}`);
  const axis = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
  if (isError(axis)) return axis;
  const d = data.shape[axis]!;
  const pending = new Pending();
  const withAxis = (size: IDim): IType =>
    tensorType(
      data.shape.map((x, i) => (i === axis ? size : x)),
      data.dtype,
    );
  let fields: IType[];
  if (isIntAttr(attrs, 'indices_or_sections')) {
    const sections = getInt(attrs, 'indices_or_sections');
    const e = pending.check(
      r.require(
        dMod(d, sections),
        '==',
        intDim(0),
        `indices_or_sections = ${sections}: dimension ${printDim(d)} of axis ${axis} of ${printType(data)} cannot be split into ${sections} equal sections`,
      ),
      'the dimension to split is not known yet',
    );
    if (e) return e;
    const piece = d.kind === 'any' ? ANY : dDiv(d, sections);
    fields = Array.from({ length: sections }, () => withAxis(piece));
  } else {
    const indices = getInts(attrs, 'indices_or_sections');
    const text = `[${indices.join(', ')}]`;
    fields = [];
    let begin = 0;
    for (const idx of indices) {
      if (idx <= begin) return r.fail(`indices_or_sections = ${text} must be strictly increasing and positive`);
      fields.push(withAxis(intDim(idx - begin)));
      begin = idx;
    }
    // (no indices: one piece, the whole tensor, also when the dimension is 0; TVM checks 0 < dim)
    const e =
      indices.length === 0
        ? null
        : pending.check(
            r.require(
              d,
              '>',
              intDim(begin),
              `indices_or_sections = ${text}: the last index ${begin} must be less than dimension ${printDim(d)} of axis ${axis} of ${printType(data)}`,
            ),
            'the dimension to split is not known yet',
          );
    if (e) return e;
    fields.push(withAxis(d.kind === 'any' ? ANY : dSub(d, begin)));
  }
  // a piece size that depends on a hole: wait without assigning (as the rules, whose arithmetic waits)
  if (fields.some(hasOpen)) return r.wait('the dimension to split is not known yet');
  const built = tupleType(fields);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

// ─── expand_dims ─────────────────────────────────────────────────────────────

export const expandDimsRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const ndim = data.shape.length;
  const pivot = normAxis(r, getInt(attrs, 'axis'), ndim, 'axis', 1);
  if (isError(pivot)) return pivot;
  const num = getInt(attrs, 'num_newaxis');
  const oshape = [...data.shape.slice(0, pivot), ...Array.from({ length: num }, () => intDim(1)), ...data.shape.slice(pivot)];
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

// ─── squeeze ─────────────────────────────────────────────────────────────────

export const squeezeRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const given = getIntsOrNull(attrs, 'axis');
  const oshape: IDim[] = [];
  if (given === null) {
    // errors first, whatever the other dims are (as the rules): Any, and a lone size variable (never decidable against 1)
    for (const d of data.shape) {
      if (d.kind === 'any') return r.fail(`axis = None cannot squeeze ${printType(data)}: the dynamic dimension ? may or may not be 1; give the axes`);
      if (d.kind === 'sym' && dimAsVariable(d.dim) !== null)
        return r.fail(`axis = None cannot squeeze ${printType(data)}: whether ${printDim(d)} is 1 cannot be decided; give the axes`);
    }
    for (const d of data.shape) {
      if (d.kind === 'hole' || d.kind === 'open') return r.wait('axis = None: some dimensions are not known yet');
      const one = compareDims(d, intDim(1), '==');
      if (one === undefined) return r.wait(`axis = None: cannot decide whether ${printDim(d)} is 1; give the axes`);
      if (!one) oshape.push(d);
    }
  } else {
    const axes = normAxes(r, given, data.shape.length, 'axis');
    if (isError(axes)) return axes;
    for (const a of axes) {
      const d = data.shape[a]!;
      if (d.kind === 'any') continue;
      const e = r.assignDim(d, intDim(1), `cannot squeeze axis ${a} of ${printType(data)}: its dimension must be 1`);
      if (e) return e;
    }
    data.shape.forEach((d, i) => {
      if (!axes.includes(i)) oshape.push(d);
    });
  }
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

// ─── take ────────────────────────────────────────────────────────────────────

export const takeRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  const indices = expectTensor(r, args[1]!, 'indices');
  if (isError(data)) return data;
  if (isError(indices)) return indices;
  const pending = new Pending();
  const axis = getIntOrNull(attrs, 'axis');
  const given = getInt(attrs, 'batch_dims');
  // the checks on one argument come first: an error as soon as it is certain (as the rules)
  let bd = 0;
  if (indices !== 'wait') {
    if (typeof indices.dtype === 'string') {
      if (!isIntDtype(indices.dtype)) return r.fail(`indices must have an integer dtype, got ${printType(indices)}`);
    } else pending.note('the dtype of indices is not known yet');
    const nIdx = indices.shape.length;
    bd = given < 0 ? given + nIdx : given;
    if (axis !== null && (bd < 0 || bd > nIdx)) return r.fail(`batch_dims = ${given} is out of range for indices ${printType(indices)} of rank ${nIdx}`);
  }
  let ax = 0;
  if (data !== 'wait' && axis !== null) {
    const n = normAxis(r, axis, data.shape.length, 'axis');
    if (isError(n)) return n;
    ax = n;
  }
  if (data === 'wait' || indices === 'wait') return r.wait('the types of data and indices are not known yet');
  let oshape: IDim[];
  if (axis === null) oshape = [...indices.shape];
  else {
    if (bd > ax) return r.fail(`batch_dims = ${bd} must not exceed axis = ${ax}`);
    for (let i = 0; i < bd; i++) {
      const e = r.assignDim(indices.shape[i]!, data.shape[i]!, `batch dimension ${i} of indices and data differ`);
      if (e) return e;
    }
    oshape = [...data.shape.slice(0, ax), ...indices.shape.slice(bd), ...data.shape.slice(ax + 1)];
  }
  const built = tensorType(oshape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

// ─── reshape_like ────────────────────────────────────────────────────────────

/** [begin, end) of a rank-`rank` shape from begin/end as given (negative + rank; end None = rank); null unless 0 <= begin <= end <= rank. */
function likeRange(begin: number, end: number | null, rank: number): [number, number] | null {
  const b = begin < 0 ? begin + rank : begin;
  const e0 = end ?? rank;
  const e = e0 < 0 ? e0 + rank : e0;
  return b >= 0 && b <= e && e <= rank ? [b, e] : null;
}

export const reshapeLikeRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  const like = expectTensor(r, args[1]!, 'shape_like');
  if (isError(data)) return data;
  if (isError(like)) return like;
  const lb = getInt(attrs, 'lhs_begin');
  const le = getIntOrNull(attrs, 'lhs_end');
  const rb = getInt(attrs, 'rhs_begin');
  const re = getIntOrNull(attrs, 'rhs_end');
  const lrange = data === 'wait' ? null : likeRange(lb, le, data.shape.length);
  if (data !== 'wait' && lrange === null)
    return r.fail(`lhs_begin = ${lb}, lhs_end = ${le ?? 'None'} do not give a range of the dims of data ${printType(data)}`);
  const rrange = like === 'wait' ? null : likeRange(rb, re, like.shape.length);
  if (like !== 'wait' && rrange === null)
    return r.fail(`rhs_begin = ${rb}, rhs_end = ${re ?? 'None'} do not give a range of the dims of shape_like ${printType(like)}`);
  if (data === 'wait' || like === 'wait' || lrange === null || rrange === null) return r.wait('the types of data and shape_like are not known yet');
  const oshape = [...data.shape.slice(0, lrange[0]), ...like.shape.slice(rrange[0], rrange[1]), ...data.shape.slice(lrange[1])];
  const pending = new Pending();
  if (!data.shape.some((d) => d.kind === 'any') && !oshape.some((d) => d.kind === 'any')) {
    const inSize = dProduct(data.shape);
    const outSize = dProduct(oshape);
    const e = pending.check(
      r.require(
        outSize,
        '==',
        inSize,
        `cannot reshape data ${printType(data)} (${printDim(inSize)} elements) into ${shapeText(oshape)} (${printDim(outSize)} elements)`,
      ),
      'some dimensions are not known yet',
    );
    if (e) return e;
  }
  const built = tensorType(oshape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

// ─── stack ───────────────────────────────────────────────────────────────────

export const stackRel: RelationFn = (args, out, attrs, r) => {
  const t = args[0]!;
  if (t.kind === 'hole') return r.wait('the type of data is not known yet');
  if (t.kind !== 'tuple') return r.fail(`data must be a tuple of tensors, got ${printType(t)}`);
  if (t.fields.length === 0) return r.fail('data must be a non-empty tuple of tensors');
  const first = t.fields[0]!;
  if (first.kind === 'hole') return r.wait('the type of data.0 is not known yet');
  if (first.kind !== 'tensor') return r.fail(`data.0 must be a tensor, got ${printType(first)}`);
  const ndim = first.shape.length;
  const axis = normAxis(r, getInt(attrs, 'axis'), ndim, 'axis', 1);
  for (const [i, f] of t.fields.entries()) {
    if (i === 0) continue;
    const e = r.assign(f, first, `data.${i} (every field must have the type of data.0)`);
    if (e) return e;
  }
  if (isError(axis)) return axis;
  const cur = r.resolve(first) as TensorType;
  const oshape = [...cur.shape.slice(0, axis), intDim(t.fields.length), ...cur.shape.slice(axis)];
  const built = tensorType(oshape, cur.dtype);
  return r.assign(out, built, 'the result') ?? 'done';
};

// ─── strided_slice ───────────────────────────────────────────────────────────

function liftMinMax(f: (a: Dim, b: Dim) => Dim): (a: IDim, b: IDim | number) => IDim {
  return (a, b) => {
    const y = typeof b === 'number' ? intDim(b) : b;
    if (a.kind === 'any' || y.kind === 'any') return ANY;
    const da = dimValue(a);
    const db = dimValue(y);
    if (da === null || db === null) return OPEN;
    return dimOf(f(da, db));
  };
}
const dMin = liftMinMax(dimMin);
const dMax = liftMinMax(dimMax);

/** "Past the end" (TVM's int64 max), for begin/end entries that are not given. */
const PAST_END = 'past-end';
type SliceIndex = number | typeof PAST_END;

/** TVM's CanonicalizeIndex: negative + d, clamped to [0, d] (stride > 0) or [-1, d - 1] (stride < 0). */
function canonIndex(x: SliceIndex, d: IDim, stride: number): IDim {
  if (x === PAST_END) return stride > 0 ? d : dSub(d, 1);
  const v = x < 0 ? dAdd(intDim(x), d) : intDim(x);
  return stride > 0 ? dMin(dMax(v, 0), d) : dMin(dMax(v, -1), dSub(d, 1));
}

/** The length of the slice [b, e) with step `stride` (0 when empty). */
function sliceLength(b: IDim, e: IDim, stride: number): IDim {
  if (stride > 0) return dMax(dDiv(dSub(dAdd(dSub(e, b), stride), 1), stride), 0);
  return dMax(dDiv(dSub(dSub(dSub(b, e), stride), 1), -stride), 0);
}

export const stridedSliceRel: RelationFn = (args, out, attrs, r) => {
  const begin = getInts(attrs, 'begin');
  const end = getInts(attrs, 'end');
  const strides = getIntsOrNull(attrs, 'strides');
  const axesGiven = getIntsOrNull(attrs, 'axes');
  const sizeMode = getString(attrs, 'slice_mode') === 'size';
  const list = (xs: readonly number[] | null) => (xs === null ? 'None' : `[${xs.join(', ')}]`);
  if (strides?.includes(0)) return r.fail(`strides ${list(strides)} contain a 0`);
  if (axesGiven !== null) {
    const n = axesGiven.length;
    if (begin.length !== n || end.length !== n || (strides !== null && strides.length !== n))
      return r.fail(`begin ${list(begin)}, end ${list(end)} and strides ${list(strides)} must have one entry per axis of axes ${list(axesGiven)}`);
  }
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const ndim = data.shape.length;
  let axes: number[];
  if (axesGiven === null) {
    if (begin.length > ndim || end.length > ndim || (strides !== null && strides.length > ndim))
      return r.fail(`begin ${list(begin)}, end ${list(end)} and strides ${list(strides)} have more entries than the rank of data ${printType(data)}`);
    axes = data.shape.map((_, i) => i);
  } else {
    const n = normAxes(r, axesGiven, ndim, 'axes');
    if (isError(n)) return n;
    axes = n;
  }
  const oshape = [...data.shape];
  for (const [j, axis] of axes.entries()) {
    const d = data.shape[axis]!;
    const stride = sizeMode ? 1 : (strides?.[j] ?? 1);
    const b: SliceIndex = j < begin.length ? begin[j]! : stride > 0 ? 0 : PAST_END;
    let e: SliceIndex;
    if (j >= end.length) e = stride < 0 ? 0 : PAST_END;
    else if (!sizeMode) e = end[j]!;
    else e = end[j]! < 0 ? PAST_END : (b as number) + end[j]!;
    oshape[axis] = sliceLength(canonIndex(b, d, stride), canonIndex(e, d, stride), stride);
  }
  if (oshape.some((d) => d.kind === 'open')) return r.wait('a sliced dimension is not known yet');
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

// ─── tile, repeat, reverse ───────────────────────────────────────────────────

export const tileRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const reps = getInts(attrs, 'reps');
  const n = Math.max(data.shape.length, reps.length);
  const dims: IDim[] = [...Array.from({ length: n - data.shape.length }, () => intDim(1)), ...data.shape];
  const times = [...Array.from({ length: n - reps.length }, () => 1), ...reps];
  const oshape = dims.map((d, i) => dMul(d, times[i]!));
  if (oshape.some((d) => d.kind === 'open')) return r.wait('some dimensions of data are not known yet');
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

export const repeatRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const axis = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
  if (isError(axis)) return axis;
  const repeats = getInt(attrs, 'repeats');
  const oshape = data.shape.map((d, i) => (i === axis ? dMul(d, repeats) : d));
  if (oshape.some((d) => d.kind === 'open')) return r.wait(`dimension ${axis} of data is not known yet`);
  return r.assign(out, tensorType(oshape, data.dtype), 'the result') ?? 'done';
};

export const reverseRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const axis = normAxis(r, getInt(attrs, 'axis'), data.shape.length, 'axis');
  if (isError(axis)) return axis;
  return r.assign(out, tensorType(data.shape, data.dtype), 'the result') ?? 'done';
};

// ─── nn.pad ──────────────────────────────────────────────────────────────────

/** An error unless pad_val is a scalar tensor; null when it is, or while it is unknown (or left out). */
function checkPadValue(r: Reporter, t: IType): RelError | null {
  if (t.kind === 'hole') return null;
  if (t.kind !== 'tensor') return r.fail(`pad_val must be a tensor, got ${printType(t)}`);
  if (t.shape.length !== 0) return r.fail(`pad_val must be a scalar, got ${printType(t)} of rank ${t.shape.length}`);
  return null;
}

export const padRel: RelationFn = (args, out, attrs, r) => {
  const bad = checkPadValue(r, args[1]!);
  if (bad) return bad;
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const pw = getInts(attrs, 'pad_width');
  const mode = getString(attrs, 'pad_mode');
  const ndim = data.shape.length;
  if (pw.length !== 2 * ndim)
    return r.fail(`pad_width [${pw.join(', ')}] must hold a (before, after) pair per axis: ${2 * ndim} ints for data ${printType(data)}`);
  const pending = new Pending();
  const oshape: IDim[] = [];
  for (const [i, d] of data.shape.entries()) {
    const before = pw[2 * i]!;
    const after = pw[2 * i + 1]!;
    if (mode === 'edge' && before + after > 0) {
      const e = pending.check(
        r.require(d, '>=', intDim(1), `pad_mode "edge" cannot pad axis ${i} of data ${printType(data)}: it is empty`),
        'a padded dimension is not known yet',
      );
      if (e) return e;
    }
    if (mode === 'reflect') {
      for (const p of [before, after]) {
        if (p === 0) continue;
        const e = pending.check(
          r.require(d, '>', intDim(p), `pad_mode "reflect" needs pads smaller than the dim: pad ${p} on axis ${i} of data ${printType(data)}`),
          'a padded dimension is not known yet',
        );
        if (e) return e;
      }
    }
    const padded = dAdd(dAdd(d, before), after);
    if (before + after < 0) {
      const e = pending.check(
        r.require(padded, '>=', intDim(0), `pad_width [${pw.join(', ')}] crops axis ${i} of data ${printType(data)} below size 0`),
        'a cropped dimension is not known yet',
      );
      if (e) return e;
    }
    oshape.push(padded);
  }
  if (oshape.some((d) => d.kind === 'open')) return r.wait('some dimensions of data are not known yet');
  const built = tensorType(oshape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

// ─── broadcast_to ────────────────────────────────────────────────────────────

/**
 * Whether `from` broadcasts to `to` (aligned at the right, each dim 1 or equal, no
 * more dims): an error naming `what` when it provably does not; a residual
 * assumption when a symbolic dim provably not 1 (or against a target 1) may differ.
 */
export function checkBroadcastsTo(r: Reporter, from: readonly IDim[], to: readonly IDim[], what: string): RelError | null {
  const n = from.length;
  if (n > to.length) return r.fail(`cannot broadcast ${what}: it has more dimensions`);
  for (let i = 1; i <= n; i++) {
    const d = from[n - i]!;
    const t = to[to.length - i]!;
    const not1 = compareDims(d, intDim(1), '!=');
    const differs = compareDims(d, t, '!=');
    if (not1 === true && differs === true) return r.fail(`cannot broadcast ${what}: dimension ${printDim(d)} vs ${printDim(t)}`);
    // d is provably not 1 (or the target is 1): it must equal the target, a residual when undecided
    if (d.kind === 'sym' && differs === undefined && (not1 === true || isInt(t, 1))) {
      const e = r.require(d, '==', t, `cannot broadcast ${what}`);
      if (isError(e)) return e;
    }
  }
  return null;
}

export const broadcastToRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const shape = getInts(attrs, 'shape');
  const e = checkBroadcastsTo(r, data.shape, shape.map(intDim), `data ${printType(data)} to (${shape.join(', ')})`);
  if (e) return e;
  return r.assign(out, tensorType(shape.map(intDim), data.dtype), 'the result') ?? 'done';
};

// ─── slice_like ──────────────────────────────────────────────────────────────

export const sliceLikeRel: RelationFn = (args, out, attrs, r) => {
  const given = getIntsOrNull(attrs, 'axes');
  if (given !== null && given.length === 0) return r.fail('axes must not be empty (give None for the leading axes)');
  const data = expectTensor(r, args[0]!, 'data');
  const like = expectTensor(r, args[1]!, 'shape_like');
  if (isError(data)) return data;
  if (isError(like)) return like;
  let axes: number[] | null = null;
  if (data !== 'wait' && given !== null) {
    const n = normAxes(r, given, data.shape.length, 'axes');
    if (isError(n)) return n;
    axes = n;
  }
  if (data === 'wait' || like === 'wait') return r.wait('the types of data and shape_like are not known yet');
  const rank = like.shape.length;
  if (axes === null) axes = Array.from({ length: Math.min(data.shape.length, rank) }, (_, i) => i);
  else {
    const bad = axes.find((a) => a >= rank);
    if (bad !== undefined) return r.fail(`axis ${bad} is out of range for shape_like ${printType(like)} of rank ${rank}`);
  }
  const pending = new Pending();
  const oshape = [...data.shape];
  for (const a of axes) {
    const e = pending.check(
      r.require(like.shape[a]!, '<=', data.shape[a]!, `dimension ${a} of shape_like ${printType(like)} is larger than that of data ${printType(data)}`),
      'some dimensions are not known yet',
    );
    if (e) return e;
    oshape[a] = like.shape[a]!;
  }
  const built = tensorType(oshape, data.dtype);
  const e = r.assign(out, built, 'the result');
  if (e) return e;
  return finish(r, pending, built);
};

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Reshape: reshapeRel,
  Transpose: transposeRel,
  Concatenate: concatenateRel,
  Split: splitRel,
  ExpandDims: expandDimsRel,
  Squeeze: squeezeRel,
  Take: takeRel,
  ReverseReshape: reverseReshapeRel,
  ReshapeLike: reshapeLikeRel,
  Stack: stackRel,
  StridedSlice: stridedSliceRel,
  Tile: tileRel,
  Repeat: repeatRel,
  Reverse: reverseRel,
  Pad: padRel,
  BroadcastTo: broadcastToRel,
  SliceLike: sliceLikeRel,
};
