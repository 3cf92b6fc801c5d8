// Shape-transforming relations after TVM's src/relay/op/tensor/transform.cc and
// transform.h: Reshape, Transpose, Concatenate, Split, ExpandDims, Squeeze, Take.
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
//
// Deviations from TVM:
//  - Reshape: -1 placed after -2/-3/-4 is inferred at its OUTPUT position (TVM
//    uses its index in newshape, which puts the inferred size in the wrong place,
//    e.g. (-2, -1) on (2, 3, 4)); the -1 size must divide exactly (TVM floors);
//    the two sizes after -4 must multiply to the split dimension (TVM only checks
//    the total); the total element count is checked for symbolic shapes too
//    (residual when undecided; TVM skips every non-constant shape); malformed
//    newshape values are errors, not crashes.
//  - Transpose: as TVM (duplicate and out-of-range axes are errors).
//  - Concatenate: non-axis dimensions are unified (holes bind, symbolic sizes give
//    residuals such as `n = 3`; TVM's AssertEQ passes symbolic ones silently).
//  - Split: an undecided divisibility (`n % 2 = 0`) or bound (`n > 4`) is a
//    residual assumption (TVM's reporter->Assert passes it silently).
//  - Squeeze: duplicate axes are errors (TVM accepts them); a symbolic dimension
//    squeezed explicitly is unified with 1 (residual `n = 1`; TVM passes it
//    silently); a hole squeezed explicitly is bound to 1. With axis None TVM
//    fails on any non-constant dimension; here symbolic dimensions that are
//    provably 1 or provably not 1 are decided, undecided ones make the relation
//    wait, Any is an error (it may be 1 at run time), holes wait.
//  - Take: axis must be in [-ndim, ndim) (TVM accepts axis == ndim); a negative
//    batch_dims is normalised against the indices' rank (TVM adds it to the axis
//    by mistake); the leading batch_dims dimensions of data and indices are
//    unified (TVM does not check them); a dtype hole in indices waits for the
//    check.

import type { IDim, IType, TensorType } from './types.js';
import type { RelationFn } from './relation.js';
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
  isInt,
  isIntAttr,
  normAxes,
  normAxis,
  shapeText,
} from './common.js';
import { isError } from './relation.js';
import { ANY, intDim, isIntDtype, printDim, printType, tensorType, tupleType } from './types.js';

// ─── reshape ─────────────────────────────────────────────────────────────────

export const reshapeRel: RelationFn = (args, out, attrs, r) => {
  const data = expectTensor(r, args[0]!, 'data');
  if (data === 'wait' || isError(data)) return data;
  const newshape = getInts(attrs, 'newshape');
  const allowzero = getBool(attrs, 'allowzero');
  const ns = `[${newshape.join(', ')}]`;
  const ishape = data.shape;
  const rank = ishape.length;
  const oshape: IDim[] = [];
  const usedIn = new Set<number>();
  const usedOut = new Set<number>();
  const pending = new Pending();
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
      if (src + 1 >= rank) return r.fail(`newshape ${ns}: the -3 at position ${i} merges input dimensions ${src} and ${src + 1}, but data ${printType(data)} has rank ${rank}`);
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
      r.require(outSize, '==', inSize, `newshape ${ns} gives ${shapeText(oshape)} with ${printDim(outSize)} elements, but data ${printType(data)} has ${printDim(inSize)}`),
      'some input dimensions are not known yet',
    );
    if (e) return e;
  }
  const built = tensorType(oshape, data.dtype);
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
  return r.assign(out, tensorType(axes.map((a) => data.shape[a]!), data.dtype), 'the result') ?? 'done';
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
  if (t.fields.some((f) => f.kind === 'hole')) return r.wait('the types of some tuple fields are not known yet');
  const fields = t.fields as TensorType[];
  const first = fields[0]!;
  const ndim = first.shape.length;
  for (const [i, f] of fields.entries()) {
    if (f.shape.length !== ndim) return r.fail(`all tensors must have the same rank: data.0 is ${printType(first)}, data.${i} is ${printType(f)}`);
    const e = r.assignDtype(f.dtype, first.dtype, `all tensors must have the same dtype: data.0 vs data.${i}`);
    if (e) return e;
  }
  const axis = normAxis(r, getInt(attrs, 'axis'), ndim, 'axis');
  if (isError(axis)) return axis;
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
  const withAxis = (size: IDim): IType => tensorType(data.shape.map((x, i) => (i === axis ? size : x)), data.dtype);
  let fields: IType[];
  if (isIntAttr(attrs, 'indices_or_sections')) {
    const sections = getInt(attrs, 'indices_or_sections');
    const e = pending.check(
      r.require(dMod(d, sections), '==', intDim(0), `indices_or_sections = ${sections}: dimension ${printDim(d)} of axis ${axis} of ${printType(data)} cannot be split into ${sections} equal sections`),
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
    const e = pending.check(
      r.require(d, '>', intDim(begin), `indices_or_sections = ${text}: the last index ${begin} must be less than dimension ${printDim(d)} of axis ${axis} of ${printType(data)}`),
      'the dimension to split is not known yet',
    );
    if (e) return e;
    fields.push(withAxis(d.kind === 'any' ? ANY : dSub(d, begin)));
  }
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
    for (const d of data.shape) {
      if (d.kind === 'any') return r.fail(`axis = None cannot squeeze ${printType(data)}: the dynamic dimension ? may or may not be 1; give the axes`);
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
  if (data === 'wait' || indices === 'wait') return r.wait('the types of data and indices are not known yet');
  const pending = new Pending();
  if (typeof indices.dtype === 'string') {
    if (!isIntDtype(indices.dtype)) return r.fail(`indices must have an integer dtype, got ${printType(indices)}`);
  } else pending.note('the dtype of indices is not known yet');
  const axis = getIntOrNull(attrs, 'axis');
  let oshape: IDim[];
  if (axis === null) oshape = [...indices.shape];
  else {
    const ax = normAxis(r, axis, data.shape.length, 'axis');
    if (isError(ax)) return ax;
    const nIdx = indices.shape.length;
    const given = getInt(attrs, 'batch_dims');
    const bd = given < 0 ? given + nIdx : given;
    if (bd < 0 || bd > nIdx) return r.fail(`batch_dims = ${given} is out of range for indices ${printType(indices)} of rank ${nIdx}`);
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

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Reshape: reshapeRel,
  Transpose: transposeRel,
  Concatenate: concatenateRel,
  Split: splitRel,
  ExpandDims: expandDimsRel,
  Squeeze: squeezeRel,
  Take: takeRel,
};
