// Mutations of the bit-serial twins (relations/imperative/bitserial.ts; see mutation.ts).
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/bitserial.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'bitpack-bit-axis-off-by-one',
    file,
    find: "shape.splice(bitAxis, 0, intDim(getInt(attrs, 'bits')));",
    replace: "shape.splice(bitAxis + 1, 0, intDim(getInt(attrs, 'bits')));",
    ops: ['nn.bitpack'],
    what: 'an off-by-one: the bit planes inserted one position after bit_axis',
  },
  {
    id: 'bitpack-divisibility-unchecked',
    file,
    find: "r.require(dMod(packed, width), '==', intDim(0),",
    replace: "r.require(dMod(packed, 1), '==', intDim(0),",
    ops: ['nn.bitpack'],
    what: 'a dropped guard: a packed dim that is not a whole number of words accepted (and floored)',
  },
  {
    id: 'bitpack-data-dtype',
    file,
    find: 'const built = tensorType(shape, packType);',
    replace: 'const built = tensorType(shape, data.dtype);',
    ops: ['nn.bitpack'],
    what: "a wrong dtype: the result keeps data's dtype instead of pack_type",
  },
  {
    id: 'bitserial-conv2d-width-uses-height-stride',
    file,
    find: 'dAdd(dDiv(dAdd(w, pw - kw), sw), 1)];',
    replace: 'dAdd(dDiv(dAdd(w, pw - kw), sh), 1)];',
    ops: ['nn.bitserial_conv2d'],
    what: "the width computed with the height's stride",
  },
  {
    id: 'bitserial-conv2d-padding-one-side',
    file,
    find: 'if (p.length === 4) return [p[0]! + p[2]!, p[1]! + p[3]!];',
    replace: 'if (p.length === 4) return [p[0]! + p[1]!, p[2]! + p[3]!];',
    ops: ['nn.bitserial_conv2d'],
    what: 'four-way padding summed as (top + left, bottom + right) instead of per axis',
  },
  {
    id: 'bitserial-conv2d-ignores-layout',
    file,
    find: "    shape[pos] = canonical[i]!;\n  });\n  const built = tensorType(shape, getString(attrs, 'out_dtype'));",
    replace:
      "    shape[pos] = canonical[i]!;\n  });\n  for (const [i, d] of canonical.entries()) shape[i] = d;\n  const built = tensorType(shape, getString(attrs, 'out_dtype'));",
    ops: ['nn.bitserial_conv2d'],
    what: 'a wrong layout: the result always in NCHW order',
  },
  {
    id: 'bitserial-conv2d-weight-channels-unchecked',
    file,
    find: 'if (c !== null) checks.push([i, c,',
    replace: 'if (c !== null && false) checks.push([i, c,',
    ops: ['nn.bitserial_conv2d'],
    what: "a dropped check: the weight's input channels never compared with the data's",
  },
  {
    id: 'bitserial-dense-out-dtype-ignored',
    file,
    find: "const built = tensorType([...data.shape.slice(0, -1), intDim(units)], given === '' ? data.dtype : given);",
    replace: 'const built = tensorType([...data.shape.slice(0, -1), intDim(units)], data.dtype);',
    ops: ['nn.bitserial_dense'],
    what: 'a dropped attribute: out_dtype ignored',
  },
  {
    id: 'bitserial-dense-keeps-last-dim',
    file,
    find: 'const built = tensorType([...data.shape.slice(0, -1), intDim(units)],',
    replace: 'const built = tensorType([...data.shape.slice(0, -1), data.shape[data.shape.length - 1]!],',
    ops: ['nn.bitserial_dense'],
    what: 'a wrong shape: the last dim kept instead of becoming units',
  },
];
