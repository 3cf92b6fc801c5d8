// Cross-check sweep cases for the shape family (declared in relations/transform.rules).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import type { AttrJs } from '../../../relations/imperative/solve-one.js';
import { call, tensor, tuple, range, shapesOfRank, ALL_SHAPES, axisSweep, permutations, type Attrs, type Shape, type CaseGenerator } from '../case-kit.js';

function reshape(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) {
    const known = s.every((d) => typeof d === 'number');
    const size = known ? (s as number[]).reduce((a, b) => a * b, 1) : null;
    const news: AttrJs[] = [[-1], [...s], s.map(() => 0), [0, -1], [-2], [-3, -2], [-1, 1]];
    if (s.length >= 2) news.push([-3, ...s.slice(2)], [0, -3], [s[0]!, -1]);
    if (typeof s[0] === 'number' && s[0] > 1) news.push([-4, 1, -1, -2], [-4, -1, 1, -2]);
    if (size !== null) news.push([size], [size, 1], [1, size]);
    news.push([7], [-1, -1]);
    for (const newshape of news) {
      out.push(call(op.name, [tensor(s)], { newshape }));
      if (s.length > 0 && Array.isArray(newshape) && newshape.includes(0)) out.push(call(op.name, [tensor(s)], { newshape, allowzero: true }));
    }
  }
  out.push(call(op.name, ['_'], { newshape: [2, 3] }), call(op.name, ['_'], { newshape: [-1] }), call(op.name, [tensor([2, 3])], { newshape: 6 }));
  // holes (copied as holes; merged, split or inferred from a hole: wait), Any, attribute-only errors
  const holes: [Shape, AttrJs][] = [
    [['_'], [0]],
    [
      ['_', 6],
      [0, -1],
    ],
    [
      ['_', 6],
      [-1, 0],
    ],
    [
      [6, '_'],
      [-1, 0],
    ],
    [
      ['_', 6],
      [-4, 2, -1, 0],
    ],
    [
      ['_', 6],
      [-4, 2, 3, 0],
    ],
    [['_', 2], [-3]],
    [
      [2, '_', 3],
      [0, -1],
    ],
    [['_', 3], [-2]],
    [
      [6, '?'],
      [-1, 0],
    ],
    [
      [6, '?'],
      [2, -1],
    ],
    [
      ['?', 0],
      [0, -1],
    ],
    [
      [0, '_'],
      [0, -1],
    ],
    [
      [3, 4],
      [-1, -4, -1, 2],
    ],
    [
      [3, 4],
      [-4, -1, 3, -1],
    ],
    [[2], [0, 0]],
    [[2], [-3]],
    [
      [2, 3],
      [-2, -4, 2, 2],
    ],
    [
      [2, 3],
      [0, -3],
    ],
    [[], [-4, 1, 1]],
  ];
  for (const [sh, newshape] of holes) out.push(call(op.name, [tensor(sh)], { newshape }));
  // a -4 split that does not divide its dim while the element counts still agree (0 elements; found by `shapelog prove`)
  const zeroSplits: [Shape, AttrJs][] = [
    [
      [1, 0],
      [-4, 2, -1, 0],
    ],
    [
      [0, 0],
      [-4, 2, 3, 0],
    ],
    [
      [0, 7],
      [-1, -4, -1, 2],
    ],
    [
      [8, 0],
      [-4, -1, 3, -1],
    ],
  ];
  for (const [sh, newshape] of zeroSplits) out.push(call(op.name, [tensor(sh)], { newshape }));
  for (const newshape of [
    [-1, -1],
    [-4, 2],
    [-4, -1, -1],
    [-4, 0, 2],
    [1, -4, 2, -2],
  ] as AttrJs[])
    out.push(call(op.name, ['_'], { newshape }));
  return out;
}

function transpose(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) {
    const perms: AttrJs[] = [null, ...permutations(s.length).slice(0, 6)];
    if (s.length > 0)
      perms.push(
        range(0, s.length - 1).map((i) => i - s.length),
        [0],
      );
    for (const axes of perms) out.push(call(op.name, [tensor(s)], axes === null ? {} : { axes }));
  }
  out.push(call(op.name, ['_'], { axes: [1, 0] }), call(op.name, [tensor([2, 3])], { axes: [0, 0] }));
  return out;
}

/** Tuples of shapes, each concatenated along every axis of its first field. */
const CONCAT_GROUPS: readonly (readonly Shape[])[] = [
  [[3]],
  [[2], [3]],
  [
    [2, 3],
    [1, 3],
  ],
  [
    [2, 3],
    [2, 5],
  ],
  [
    [2, 3],
    [1, 3],
    [2, 3],
  ],
  [
    ['n', 3],
    [2, 3],
  ],
  [
    [2, 3, 5],
    [2, 3, 1],
  ],
  [
    [1, 3, 5, 5],
    [1, 2, 5, 5],
  ],
  [[2, 3], [3]],
];

/** Holes and Any (TVM's rules for Any dims), checks on the known fields while others are unknown: the fields, the axis. */
const CONCAT_HOLES: readonly (readonly [readonly Shape[], number])[] = [
  [
    [
      [3, 2],
      ['?', 2],
    ],
    1,
  ],
  [
    [
      ['?', 3],
      ['?', '?'],
    ],
    0,
  ],
  [
    [
      [1, 3],
      [1, '?'],
    ],
    0,
  ],
  [
    [
      ['?', 3],
      [2, 3],
    ],
    0,
  ],
  [
    [
      [1, 3],
      [1, '_'],
      [2, '_'],
    ],
    0,
  ],
  [[[0], ['_']], 0],
  [[['_']], 0],
  [
    [
      [0, '_', 0],
      [0, 0, 0],
    ],
    0,
  ],
  [
    [
      ['_', 2],
      [2, 3],
    ],
    1,
  ],
  [
    [
      ['n', 3],
      ['m', 4],
    ],
    1,
  ],
  [
    [
      ['n', 3],
      [2, 3],
    ],
    1,
  ],
  [
    [
      [0, 0, 0],
      ['?', 'm', 0],
    ],
    -1,
  ],
  [
    [
      [2, 3],
      [3, 3],
    ],
    1,
  ],
  [
    [
      [2, '?'],
      ['_', 3],
    ],
    0,
  ],
];

function concatenate(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const g of CONCAT_GROUPS) for (const axis of range(-g[0]!.length - 1, g[0]!.length)) out.push(call(op.name, [tuple(g.map((s) => tensor(s)))], { axis }));
  out.push(call(op.name, [tuple([tensor([2, 3]), '_'])], { axis: 0 }), call(op.name, ['_'], { axis: 0 }));
  out.push(call(op.name, [tuple([tensor([2, 3]), tensor([1, 3], 'int32')])], { axis: 0 }));
  for (const [g, axis] of CONCAT_HOLES) out.push(call(op.name, [tuple(g.map((sh) => tensor(sh)))], { axis }));
  out.push(call(op.name, [tuple([tensor([]), '_'])], { axis: 0 }), call(op.name, [tuple([tensor([2]), '_', tensor([2, 3])])], { axis: 0 }));
  out.push(call(op.name, [tuple([tensor([1, 3]), '_', tensor([1, 4], 'int32')])], { axis: 0 }), call(op.name, [tuple(['_', tensor([2, 3])])], { axis: 5 }));
  return out;
}

function split(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([1, 2, 3, 4])) {
    for (const axis of range(-s.length, s.length)) {
      for (const ios of [1, 2, 3, [1], [1, 2], [2, 4], [3, 1]] as AttrJs[]) out.push(call(op.name, [tensor(s)], { indices_or_sections: ios, axis }));
    }
  }
  out.push(call(op.name, ['_'], { indices_or_sections: 2 }), call(op.name, [tensor([])], { indices_or_sections: 1 }));
  for (const [sh, ios, axis] of [
    [[2], [1, 1], 0],
    [[5], [1, 1], -1],
    [[5], [2, 1], 0],
    [['_'], 1, 0],
    [['_'], 2, 0],
    [['_'], [], 0],
    [['_', 3], [1], 0],
    [[2, '_'], [1], 0],
    [['?', 3], [1], 0],
    [['?'], 2, 0],
    [[0], [], 0],
    [['n'], [], 0],
    [[0, 3], [], 0],
    [['n'], [2], 0],
  ] as [Shape, AttrJs, number][])
    out.push(call(op.name, [tensor(sh)], { indices_or_sections: ios, axis }));
  return out;
}

function expandDims(op: OpInfo): TypeofRequest[] {
  return axisSweep(op, (s, axis) => [0, 2].map((num_newaxis) => call(op.name, [tensor(s)], { axis, num_newaxis })));
}

function squeeze(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    const axes: AttrJs[] = [null, []];
    for (const i of range(-s.length, s.length)) axes.push([i]);
    // one axis as an int (TVM's Python API takes it), in range and just outside
    for (const i of range(-s.length - 1, s.length)) axes.push(i);
    if (s.length >= 2) axes.push([0, s.length - 1], [0, 0]);
    for (const axis of axes) out.push(call(op.name, [tensor(s)], axis === null ? {} : { axis }));
  }
  out.push(call(op.name, ['_'], { axis: [0] }), call(op.name, ['_']));
  // holes squeezed explicitly bind to 1; axis None on Any or a lone size variable is an error, on a hole waits
  for (const sh of [['_'], ['_', 2], [0, '_'], [1, '?'], ['_', 'n'], [1, 'n'], ['_', '?'], ['_', 1], ['?']] as Shape[]) {
    out.push(call(op.name, [tensor(sh)]), call(op.name, [tensor(sh)], { axis: [0] }), call(op.name, [tensor(sh)], { axis: [-1] }));
  }
  return out;
}

function take(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const indices: Shape[] = [[], [2], [2, 3], [1, 'n']];
  for (const d of shapesOfRank([1, 2, 3])) {
    for (const i of indices) {
      for (const axis of [null, ...range(-d.length, d.length)]) {
        for (const batch_dims of [0, 1]) {
          if (axis === null && batch_dims === 1) continue;
          const attrs: Attrs = { ...(axis === null ? {} : { axis }), ...(batch_dims === 0 ? {} : { batch_dims }) };
          out.push(call(op.name, [tensor(d), tensor(i, 'int32')], attrs));
        }
      }
    }
  }
  out.push(call(op.name, [tensor([2, 3]), '_'], { axis: 1 }), call(op.name, ['_', tensor([2], 'int32')], { axis: 0 }));
  out.push(call(op.name, [tensor([2, 3]), tensor([2], 'float32')], { axis: 0, mode: 'wrap' }));
  // an error as soon as one argument makes it certain; batch dims unified (n vs m clash)
  out.push(
    call(op.name, ['_', tensor([], 'float32')]),
    call(op.name, ['_', tensor([2], 'float32')], { axis: 0 }),
    call(op.name, [tensor([]), '_'], { axis: 0 }),
  );
  out.push(call(op.name, [tensor([3]), '_'], { axis: 1, batch_dims: 1 }), call(op.name, ['_', tensor([2], 'int32')], { axis: 0, batch_dims: 2 }));
  out.push(
    call(op.name, [tensor(['n', 0]), tensor(['m'], 'int32')], { axis: -1, batch_dims: 1 }),
    call(op.name, [tensor(['_', 3]), tensor([2, 4], 'int32')], { axis: 1, batch_dims: 1 }),
  );
  out.push(
    call(op.name, [tensor(['n', 3]), tensor([2, 4], 'int32')], { axis: 1, batch_dims: 1 }),
    call(op.name, [tensor([2, 3]), tensor(['_', 4], 'int32')], { axis: 1, batch_dims: -1 }),
  );
  return out;
}

function reverseReshape(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) {
    const known = s.every((d) => typeof d === 'number');
    const size = known ? (s as number[]).reduce((a, b) => a * b, 1) : null;
    const news: AttrJs[] = [[-1], [...s], s.map(() => 0), [-1, 0], [0, -1], [-2], [-2, -3], [1, -1], [-1, -1], [7], [-4, 1, -1]];
    if (s.length >= 2) news.push([...s.slice(0, -2), -3], [-3, 0], [-1, s[s.length - 1]!], [-2, 1, 0]);
    if (size !== null) news.push([size], [1, size], size);
    for (const newshape of news) out.push(call(op.name, [tensor(s)], { newshape }));
  }
  out.push(call(op.name, ['_'], { newshape: [2, 3] }), call(op.name, ['_'], { newshape: [-1, -1] }), call(op.name, ['_'], { newshape: [-4, 2, 3] }));
  out.push(call(op.name, [tensor([2, '_', 3])], { newshape: [-1, 0] }), call(op.name, [tensor([2, 3, 4], 'int8')], { newshape: [-1, 0] }));
  const holes: [Shape, AttrJs][] = [
    [['_'], [0]],
    [['_'], 0],
    [
      [6, '_'],
      [-1, 0],
    ],
    [
      ['_', 6],
      [-1, 0],
    ],
    [
      ['_', 6],
      [0, -1],
    ],
    [[2, '_'], [-3]],
    [
      [6, '?'],
      [-1, 0],
    ],
    [
      [2, 3],
      [0, 0, -1],
    ],
    [[2], [-3]],
    [
      [2, 3],
      [-3, -2],
    ],
    [
      [2, 3],
      [0, -3],
    ],
  ];
  for (const [sh, newshape] of holes) out.push(call(op.name, [tensor(sh)], { newshape }));
  return out;
}

function reshapeLike(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const pairs: [Shape, Shape][] = [
    [[2, 3], [6]],
    [
      [2, 3],
      [3, 2],
    ],
    [
      [2, 3],
      [1, 6, 1],
    ],
    [[6], [2, 3]],
    [
      [2, 3, 5],
      [6, 5],
    ],
    [[2, 3, 5], [7]],
    [[], [1]],
    [[], []],
    [[0, 3], [0]],
    [
      ['n', 3],
      ['n', 3],
    ],
    [
      ['n', 3],
      [3, 'n'],
    ],
    [
      ['n', 6],
      ['n', 2, 3],
    ],
    [
      [1, 3, 5, 5],
      [3, 25],
    ],
    [
      [1, 3, 5, 5],
      [1, 75],
    ],
    [
      [2, 3],
      ['n', 6],
    ],
  ];
  const ranges: Attrs[] = [
    {},
    { lhs_begin: 1 },
    { lhs_begin: -1 },
    { lhs_end: 1 },
    { lhs_begin: 1, lhs_end: 1 },
    { rhs_begin: 1 },
    { rhs_end: -1 },
    { rhs_begin: 1, rhs_end: 2 },
    { lhs_begin: 1, rhs_begin: 1 },
    { lhs_begin: 0, lhs_end: 1, rhs_begin: 0, rhs_end: 1 },
    { lhs_begin: 3 },
    { lhs_begin: 2, lhs_end: 1 },
    { rhs_end: 5 },
    { rhs_begin: -3 },
    { lhs_end: -5 },
  ];
  for (const [a, b] of pairs) for (const attrs of ranges) out.push(call(op.name, [tensor(a), tensor(b, 'int32')], attrs));
  out.push(
    call(op.name, ['_', tensor([6])]),
    call(op.name, [tensor([2, 3]), '_']),
    call(op.name, [tensor([2, 3]), '_'], { lhs_begin: 5 }),
    call(op.name, ['_', tensor([6])], { rhs_begin: 3 }),
  );
  out.push(call(op.name, [tensor([2, '_']), tensor([6])]), call(op.name, [tensor([2, 3]), tensor(['_', 2])]));
  return out;
}

function stack(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const groups: string[][] = [];
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) groups.push([tensor(s)], [tensor(s), tensor(s)], [tensor(s), tensor(s), tensor(s)]);
  groups.push(
    [tensor([2, 3]), tensor([3, 2])],
    [tensor([2, 3]), tensor([2])],
    [tensor([2, 3]), tensor([2, 3], 'int32')],
    [tensor(['n', 3]), tensor([2, 3])],
    [tensor([2, '_']), tensor([2, 3])],
    [tensor([2, 3]), '_'],
    ['_', tensor([2, 3])],
  );
  for (const g of groups) {
    const rank = g[0] === '_' ? 2 : g[0]!.split(',').length - 1;
    for (const axis of range(-rank - 2, rank + 1)) out.push(call(op.name, [tuple(g)], { axis }));
  }
  out.push(call(op.name, ['_'], { axis: 0 }), call(op.name, [tensor([2, 3])], { axis: 0 }));
  return out;
}

function stridedSlice(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const idx = [0, 1, -1, 9, -7];
  const steps: AttrJs[] = [null, [2], [-1], [-2]];
  for (const s of [[0], [5], ['n', 3], [2, 3, 5]] as Shape[]) {
    for (const b of idx) {
      for (const e of idx.slice(0, 4)) {
        for (const strides of steps) out.push(call(op.name, [tensor(s)], { begin: [b], end: [e], ...(strides === null ? {} : { strides }) }));
        out.push(call(op.name, [tensor(s)], { begin: [b], end: [e], slice_mode: 'size' }));
      }
    }
  }
  for (const s of shapesOfRank([0, 1, 2, 3, 4])) {
    out.push(
      call(op.name, [tensor(s)], { begin: [], end: [] }),
      call(op.name, [tensor(s)], { begin: [0, 0, 0, 0], end: [1] }),
      call(op.name, [tensor(s)], { begin: [1, 1], end: [2], strides: [1, -1] }),
    );
    out.push(
      call(op.name, [tensor(s)], { begin: [], end: [], strides: [-1] }),
      call(op.name, [tensor(s)], { begin: [1], end: [-1], slice_mode: 'size' }),
      call(op.name, [tensor(s)], { begin: [0], end: [1], strides: [0] }),
    );
    out.push(call(op.name, [tensor(s)], { begin: [3, -2], end: [-9, 4], strides: [-1, 3] }));
    // begin, end and strides that differ between axes
    const per = (xs: readonly number[]) => xs.slice(0, s.length);
    out.push(
      call(op.name, [tensor(s)], { begin: per([0, 1, 2, 0]), end: per([1, 3, 5, 2]), strides: per([1, 2, 1, 3]) }),
      call(op.name, [tensor(s)], { begin: per([1, 0, 3, 1]), end: per([2, 2, 4, 3]) }),
    );
    out.push(
      call(op.name, [tensor(s)], { begin: per([-1, 2, 0, -2]), end: per([-3, 0, 4, 0]), strides: per([-1, -2, 2, -1]) }),
      call(op.name, [tensor(s)], { begin: per([0, 1, 1, 0]), end: per([2, 1, 3, 1]), slice_mode: 'size' }),
    );
  }
  for (const s of shapesOfRank([2, 3, 4])) {
    for (const axes of [[0], [-1], [1, 0], [0, 0], [5]] as number[][]) {
      const rep = (x: number) => axes.map(() => x);
      out.push(
        call(op.name, [tensor(s)], { begin: rep(1), end: rep(3), axes }),
        call(op.name, [tensor(s)], { begin: rep(-1), end: rep(-4), strides: rep(-1), axes }),
      );
      out.push(call(op.name, [tensor(s)], { begin: rep(0), end: rep(2), strides: rep(2), axes, slice_mode: 'size' }));
    }
    out.push(
      call(op.name, [tensor(s)], { begin: [0, 0], end: [2], axes: [0] }),
      call(op.name, [tensor(s)], { begin: [0], end: [2], strides: [1, 1], axes: [1] }),
    );
  }
  out.push(
    call(op.name, ['_'], { begin: [0], end: [1] }),
    call(op.name, ['_'], { begin: [0], end: [1], strides: [0] }),
    call(op.name, ['_'], { begin: [0], end: [1, 2], axes: [0] }),
  );
  out.push(
    call(op.name, [tensor([2, '_', 5])], { begin: [0, 1], end: [1, 2] }),
    call(op.name, [tensor([2, '_', 5])], { begin: [1], end: [2], axes: [2] }),
    call(op.name, [tensor([2, 3], 'int8')], { begin: [1], end: [2] }),
  );
  return out;
}

function tile(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES)
    for (const reps of [[], [1], [2], [1, 3], [2, 1, 2], [1, 1, 1, 1, 2], [3, 2, 1, 1]] as AttrJs[]) out.push(call(op.name, [tensor(s)], { reps }));
  out.push(
    call(op.name, ['_'], { reps: [2] }),
    call(op.name, [tensor([2, '_'])], { reps: [2, 1] }),
    call(op.name, [tensor([2, 3])], { reps: [0] }),
    call(op.name, [tensor([2, 3], 'int32')], { reps: [2, 2] }),
  );
  return out;
}

function repeat(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES)
    for (const axis of range(-s.length - 1, s.length)) for (const repeats of [1, 3]) out.push(call(op.name, [tensor(s)], { repeats, axis }));
  out.push(
    call(op.name, ['_'], { repeats: 2, axis: 0 }),
    call(op.name, [tensor([2, '_'])], { repeats: 2, axis: 1 }),
    call(op.name, [tensor([2, '_'])], { repeats: 2, axis: 0 }),
    call(op.name, [tensor([2, 3])], { repeats: 0, axis: 0 }),
  );
  return out;
}

function reverse(op: OpInfo): TypeofRequest[] {
  const out = axisSweep(op);
  out.push(call(op.name, [tensor([2, '_'], 'int32')], { axis: 1 }));
  return out;
}

function pad(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    // the last two: widths that differ between axes (and between the two sides of an axis)
    const widths: number[][] = [
      s.flatMap(() => [0, 0]),
      s.flatMap(() => [1, 0]),
      s.flatMap(() => [1, 2]),
      s.flatMap((_, i) => (i === s.length - 1 ? [3, 3] : [0, 0])),
      [1, 1],
      [...s.flatMap(() => [0, 0]), 1],
      s.flatMap((_, i) => [i, (i + 2) % 3]),
      s.flatMap((_, i) => [(2 * i + 1) % 4, i]),
    ];
    for (const pad_width of widths)
      for (const pad_mode of ['constant', 'edge', 'reflect'])
        out.push(call(op.name, [tensor(s)], { pad_width, ...(pad_mode === 'constant' ? {} : { pad_mode }) }));
  }
  out.push(
    call(op.name, [tensor([2, 3])], { pad_width: [0, 0, 1, 1], pad_value: 1.5 }),
    call(op.name, [tensor([2, 3])], { pad_width: [0, 0, -1, 1] }),
    call(op.name, [tensor([2, 3])], { pad_width: [1, 1, 1, 1], pad_mode: 'wrap' }),
  );
  // pad_width as pairs (the catalogue flattens them)
  for (const [sh, pad_width] of [
    [
      [2, 3],
      [
        [0, 0],
        [1, 1],
      ],
    ],
    [
      [1, 3, 5, 5],
      [
        [0, 0],
        [0, 0],
        [1, 1],
        [2, 2],
      ],
    ],
    [[3], [[2, 0]]],
    [[2, 3], [[1, 1]]],
    [[], []],
    [
      ['n', 3],
      [
        [1, 0],
        [0, 2],
      ],
    ],
    [
      ['_', 3],
      [
        [1, 1],
        [0, 0],
      ],
    ],
  ] as [Shape, AttrJs][]) {
    out.push(call(op.name, [tensor(sh)], { pad_width }), call(op.name, [tensor(sh)], { pad_width, pad_mode: 'reflect' }));
  }
  out.push(
    call(op.name, ['_'], { pad_width: [[1, 1]] }),
    call(op.name, [tensor([2, 3])], { pad_width: [[0, 0], [1]] }),
    call(op.name, [tensor([2, 3])], {
      pad_width: [
        [0, 0],
        [1, -1],
      ],
    }),
  );
  out.push(
    call(op.name, ['_'], { pad_width: [1, 1] }),
    call(op.name, [tensor([2, '_'])], { pad_width: [0, 0, 1, 1] }),
    call(op.name, [tensor([2, '_'])], { pad_width: [1, 1, 0, 0] }),
    call(op.name, [tensor([2, 3], 'int32')], { pad_width: [1, 1, 1, 1], pad_mode: 'edge' }),
  );
  // negative widths crop (per axis and per side differently), down to 0 and past it, on known and symbolic dims
  for (const s of shapesOfRank([1, 2, 3])) {
    const crops: number[][] = [
      s.flatMap((_, i) => [-i, i === 0 ? -1 : 1]),
      s.flatMap((_, i) => [i - 1, -1]),
      s.flatMap(() => [-1, -1]),
      s.flatMap((_, i) => [-2 - i, 0]),
    ];
    for (const pad_width of crops)
      for (const pad_mode of ['constant', 'edge', 'reflect'])
        out.push(call(op.name, [tensor(s)], { pad_width, ...(pad_mode === 'constant' ? {} : { pad_mode }) }));
  }
  out.push(
    call(op.name, [tensor(['n', 4])], {
      pad_width: [
        [-1, 0],
        [1, -3],
      ],
    }),
    call(op.name, [tensor([3, 0])], {
      pad_width: [
        [0, -3],
        [2, -2],
      ],
      pad_mode: 'edge',
    }),
  );
  // pad_val as TVM's second argument: a scalar of any dtype, unknown, a tensor of rank > 0, a tuple
  for (const v of ['float32', 'int8', '_', tensor([1]), tensor([2, 2]), tensor([0]), tuple([tensor([])])]) {
    out.push(
      call(op.name, [tensor([2, 3]), v], {
        pad_width: [
          [0, 1],
          [-1, 2],
        ],
      }),
      call(op.name, ['_', v], { pad_width: [[1, 0]] }),
      call(op.name, [tensor([4, 'n']), v], {
        pad_width: [
          [0, -2],
          [1, 1],
        ],
        pad_mode: 'edge',
      }),
    );
  }
  // too many arguments
  out.push(
    call(op.name, [tensor([2, 3]), 'float32', 'float32'], {
      pad_width: [
        [1, 1],
        [1, 1],
      ],
    }),
  );
  return out;
}

function broadcastTo(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const targets: number[][] = [[], [1], [3], [5], [0], [2, 3], [4, 3], [2, 1], [1, 3, 5, 5], [2, 3, 5], [2, 2, 3, 5], [2, 1, 3, 2], [4, 2, 0, 3], [3, 2, 3, 2]];
  for (const s of ALL_SHAPES) for (const shape of targets) out.push(call(op.name, [tensor(s)], { shape }));
  out.push(
    call(op.name, ['_'], { shape: [2, 3] }),
    call(op.name, [tensor(['_', 3])], { shape: [2, 3] }),
    call(op.name, [tensor([2, 3])], { shape: [2, -3] }),
    call(op.name, [tensor(['n', 1], 'int64')], { shape: [1, 4] }),
  );
  return out;
}

function sliceLike(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const likes: Shape[] = [[], [1], [2, 2], [1, 3, 4], ['n', 1]];
  for (const s of ALL_SHAPES) {
    const axesList: AttrJs[] = [null, [0], [-1], [1, 0], [s.length]];
    if (s.length >= 2) axesList.push(s.length === 2 ? [0, 0] : [-1, -2]);
    for (const l of likes) for (const axes of axesList) out.push(call(op.name, [tensor(s), tensor(l, 'int32')], axes === null ? {} : { axes }));
  }
  out.push(call(op.name, [tensor([2, 3]), tensor([2, 3])], { axes: [] }), call(op.name, [tensor([5, 3, 4]), tensor([2, 3, 5, 5])], { axes: [2] }));
  out.push(
    call(op.name, ['_', tensor([2])]),
    call(op.name, [tensor([2, 3]), '_']),
    call(op.name, [tensor([2, 3]), '_'], { axes: [4] }),
    call(op.name, ['_', tensor([2])], { axes: [] }),
  );
  out.push(call(op.name, [tensor([5, '_']), tensor([2, 3])]), call(op.name, [tensor([5, 3]), tensor(['_', 3])]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Reshape: reshape,
  Transpose: transpose,
  Concatenate: concatenate,
  Split: split,
  ExpandDims: expandDims,
  Squeeze: squeeze,
  Take: take,
  ReverseReshape: reverseReshape,
  ReshapeLike: reshapeLike,
  Stack: stack,
  StridedSlice: stridedSlice,
  Tile: tile,
  Repeat: repeat,
  Reverse: reverse,
  Pad: pad,
  BroadcastTo: broadcastTo,
  SliceLike: sliceLike,
};
