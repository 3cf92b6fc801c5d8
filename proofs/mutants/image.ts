// Mutations of the image family's imperative twins (see mutation.ts).
import type { Mutation } from './mutation.js';

const file = 'relations/imperative/image.ts';

export const MUTATIONS: readonly Mutation[] = [
  {
    id: 'resize-nd-size-reversed',
    file,
    find: "const size = getInts(attrs, 'size').map(intDim);",
    replace: "const size = getInts(attrs, 'size').map(intDim).reverse();",
    ops: ['image.resize3d'],
    what: 'swapped axes: the sizes applied to the spatial axes in reverse order',
  },
  {
    id: 'resize-nd-empty-unchecked',
    file,
    find: "if (compareDims(dProduct(xs), intDim(0), '==') === true) {",
    replace: "if (compareDims(dProduct(xs), intDim(0), '<') === true) {",
    ops: ['image.resize1d', 'image.resize3d'],
    what: 'a dropped check: an empty input resized to a non-empty output is accepted',
  },
  {
    id: 'resize-nd-ignores-out-dtype',
    file,
    find: "const built = tensorType(inLayout([n!, c!, ...size], perm), getString(attrs, 'out_dtype') || data.dtype);",
    replace: 'const built = tensorType(inLayout([n!, c!, ...size], perm), data.dtype);',
    ops: ['image.resize1d'],
    what: 'a wrong default: out_dtype ignored',
  },
  {
    id: 'upsampling3d-scales-swapped',
    file,
    find: "for (const name of ['scale_d', 'scale_h', 'scale_w']) {",
    replace: "for (const name of ['scale_h', 'scale_d', 'scale_w']) {",
    ops: ['nn.upsampling3d'],
    what: 'swapped axes: the depth scaled by scale_h and the height by scale_d',
  },
  {
    id: 'affine-grid-target-swapped',
    file,
    find: 'const built = tensorType([n, intDim(2), intDim(h!), intDim(w!)], data.dtype);',
    replace: 'const built = tensorType([n, intDim(2), intDim(w!), intDim(h!)], data.dtype);',
    ops: ['image.affine_grid'],
    what: 'swapped axes: the grid is (width, height)',
  },
  {
    id: 'affine-grid-cols-unchecked',
    file,
    find: 'for (const [d, want] of [[rows, 2], [cols, 3]] as const) {',
    replace: 'for (const [d, want] of [[rows, 2]] as const) {',
    ops: ['image.affine_grid'],
    what: 'a dropped check: matrices of any width accepted',
  },
  {
    id: 'grid-sample-grid-dims-swapped',
    file,
    find: 'const built = tensorType([n, c, grid.shape[2]!, grid.shape[3]!], data.dtype);',
    replace: 'const built = tensorType([n, c, grid.shape[3]!, grid.shape[2]!], data.dtype);',
    ops: ['image.grid_sample'],
    what: 'swapped axes: the output height and width read from the grid in the wrong order',
  },
  {
    id: 'crop-and-resize-batch-from-data',
    file,
    find: 'const built = tensorType(inLayout([boxes.shape[0]!, c!, ch, cw], perm),',
    replace: 'const built = tensorType(inLayout([data.shape[0]!, c!, ch, cw], perm),',
    ops: ['image.crop_and_resize'],
    what: 'a wrong source: the result batch taken from the data instead of the boxes',
  },
  {
    id: 'dilation2d-width-uses-height-dilation',
    file,
    find: "const ow = windowOut(r, pending, w!, pw, kw, dw, sw, 'width');",
    replace: "const ow = windowOut(r, pending, w!, pw, kw, dh, sw, 'width');",
    ops: ['image.dilation2d'],
    what: "swapped axes: the width's window dilated by the height's dilation",
  },
  {
    id: 'dilation2d-window-off-by-one',
    file,
    find: 'const dk = dAdd(dMul(dSub(k, 1), dilation), 1);',
    replace: 'const dk = dMul(dSub(k, 1), dilation);',
    ops: ['image.dilation2d'],
    what: 'an off-by-one: the dilated window one smaller',
  },
];
