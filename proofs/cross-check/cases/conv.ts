// Cross-check sweep cases for the conv family (declared in relations/conv.rules): convolution in
// 1-3 spatial dimensions, transposed convolution, pooling (plain, global, adaptive).
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, combos, shapesOfRank, type Attrs, type Dim, type Shape, type CaseGenerator } from '../case-kit.js';

const fill = (nd: number, v: Dim): Dim[] => Array.from({ length: nd }, () => v);
const CANON = ['NCW', 'NCHW', 'NCDHW'];
const LAST = ['NWC', 'NHWC', 'NDHWC'];
const KCANON = ['OIW', 'OIHW', 'OIDHW'];
const KLAST = ['WIO', 'HWIO', 'DHWIO'];

/** A canonical (N, C, spatial...) shape in the channels-last layout. */
const toLast = (s: Shape): Dim[] => [s[0]!, ...s.slice(2), s[1]!];
/** A canonical (O, I, spatial...) weight in the spatial-first kernel layout (HWIO). */
const wLast = (s: Shape): Dim[] => [...s.slice(2), s[1]!, s[0]!];

/** The first `nd` values: a per-axis attribute whose axes all differ (a bug that reads one axis's value for another shows). */
const axes = (nd: number, values: readonly number[]): number[] => values.slice(0, nd);
/** Spatial sizes that differ between axes. */
const ASYM = [7, 6, 5];

/**
 * Per-axis attributes that differ between axes, one at a time and all together: strides,
 * dilations, paddings (per axis, and before/after), kernel sizes (inferred weight and given
 * weight), on data whose spatial sizes differ too.
 */
function asymmetricConv(op: OpInfo, nd: number, lay: (a: Attrs) => Attrs, d: (s: Shape) => string, w: (s: Shape) => string): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const data: Shape = [1, 3, ...axes(nd, ASYM)];
  const k3 = { channels: 4, kernel_size: 3 };
  for (const a of [
    { ...k3, strides: axes(nd, [1, 2, 3]) },
    { ...k3, strides: axes(nd, [3, 1, 2]) },
    { ...k3, dilation: axes(nd, [1, 2, 3]) },
    { ...k3, dilation: axes(nd, [2, 1, 1]) },
    { ...k3, padding: axes(nd, [0, 1, 2]) },
    { ...k3, padding: [...axes(nd, [0, 1, 2]), ...axes(nd, [2, 0, 1])] },
    { channels: 4, kernel_size: axes(nd, [3, 1, 2]) },
    {
      channels: 4,
      kernel_size: axes(nd, [1, 3, 2]),
      strides: axes(nd, [2, 1, 3]),
      dilation: axes(nd, [1, 2, 1]),
      padding: [...axes(nd, [1, 0, 2]), ...axes(nd, [0, 2, 1])],
    },
  ] as Attrs[])
    out.push(call(op.name, [d(data), '_'], lay(a)));
  // a given weight with a kernel that differs between axes
  for (const a of [{}, { strides: axes(nd, [2, 1, 3]) }, { dilation: axes(nd, [1, 2, 3]) }, { padding: axes(nd, [2, 0, 1]) }] as Attrs[]) {
    out.push(call(op.name, [d(data), w([4, 3, ...axes(nd, [3, 1, 2])])], lay(a)), call(op.name, [d(data), w([4, 3, ...axes(nd, [1, 3, 2])])], lay(a)));
  }
  return out;
}

/**
 * Packed layouts (TVM's BijectiveLayout in Conv1DRel/Conv2DRel/Conv3DRel): data, kernel and
 * out layouts with sub-axes (NCHW4c, NCHW4n4c, NHWC8c, OIHW4o4i, a split spatial axis),
 * inferred and given weights, per-axis attributes that differ between axes, symbolic and
 * unknown dims, and what must fail (a sub-axis extent that is not its factor, a split
 * that does not divide, a layout of other primal axes).
 */
function packedConv(op: OpInfo, nd: number): TypeofRequest[] {
  const sp = CANON[nd - 1]!.slice(2);
  const out: TypeofRequest[] = [];
  const NC4 = `NC${sp}4c`;
  const OI4 = `OI${sp}4o4i`;
  const sps = axes(nd, ASYM);
  // (1, 8, sp) as NCsp4c: (1, 2, sp, 4)
  const d4: Dim[] = [1, 2, ...sps, 4];
  for (const a of [
    { channels: 8, kernel_size: 3 },
    { channels: 4, kernel_size: 3, data_layout: NC4 },
    { channels: 8, kernel_size: 3, strides: axes(nd, [1, 2, 3]), dilation: axes(nd, [2, 1, 1]), padding: [...axes(nd, [1, 0, 2]), ...axes(nd, [0, 2, 1])] },
    { channels: 8, kernel_size: axes(nd, [3, 1, 2]), out_layout: CANON[nd - 1]! },
    { channels: 8, kernel_size: 1, out_layout: `NC${sp}8c` },
    { channels: 8, kernel_size: 1, groups: 2 },
    { channels: 6, kernel_size: 1 }, // 6 output channels do not split by 4 (weight and result)
    { channels: 8, kernel_size: 3, out_layout: `NC${sp}4n` }, // N = 1 does not split by 4
  ] as Attrs[])
    out.push(call(op.name, [tensor(d4), '_'], { data_layout: NC4, kernel_layout: OI4, ...a }));
  // the weight given, packed: (8, 8, k...) as OIsp4o4i = (2, 2, k..., 4, 4)
  for (const a of [{}, { strides: axes(nd, [2, 1, 3]) }, { channels: 8 }, { kernel_size: axes(nd, [3, 1, 2]) }, { channels: 4 }] as Attrs[]) {
    out.push(call(op.name, [tensor(d4), tensor([2, 2, ...axes(nd, [3, 1, 2]), 4, 4])], { data_layout: NC4, kernel_layout: OI4, ...a }));
  }
  out.push(call(op.name, [tensor(d4), tensor([2, 2, ...fill(nd, 1), 4, 3])], { data_layout: NC4, kernel_layout: OI4 })); // sub-axis 3, not 4
  out.push(call(op.name, [tensor(d4), tensor([8, 8, ...fill(nd, 1)])], { data_layout: NC4 })); // a plain weight beside packed data
  out.push(call(op.name, [tensor([1, 3, ...sps]), tensor([6, 3, ...fill(nd, 1)])], { out_layout: NC4 })); // 6 result channels do not split by 4
  out.push(call(op.name, [tensor([1, 3, ...sps]), tensor([8, 3, ...fill(nd, 1)])], { out_layout: `NC${sp}4n4c` })); // nor does a batch of 1
  out.push(call(op.name, [tensor([1, 2, ...sps, 3]), '_'], { data_layout: NC4, channels: 4, kernel_size: 1 })); // data sub-axis 3, not 4
  out.push(call(op.name, [tensor([1, 2, ...sps]), '_'], { data_layout: NC4, channels: 4, kernel_size: 1 })); // rank of NCsp, not NCsp4c
  // symbolic and unknown dims: a symbolic batch, an Any spatial dim, an unknown weight without attributes
  out.push(call(op.name, [tensor(['n', 2, ...sps, 4]), '_'], { data_layout: NC4, kernel_layout: OI4, channels: 8, kernel_size: 3 }));
  out.push(call(op.name, [tensor([1, 2, ...fill(nd - 1, 5), '?', 4]), '_'], { data_layout: NC4, channels: 4, kernel_size: 3 }));
  out.push(call(op.name, [tensor([1, 'c', ...sps, 4]), tensor([1, 'c', ...fill(nd, 1), 4, 4])], { data_layout: NC4, kernel_layout: OI4 }));
  out.push(call(op.name, [tensor(d4), '_'], { data_layout: NC4 }));
  // N and C both split, channels last with a split C, a split spatial axis
  out.push(call(op.name, [tensor([1, 2, ...sps, 4, 4]), '_'], { data_layout: `NC${sp}4n4c`, kernel_layout: OI4, channels: 16, kernel_size: 3 }));
  out.push(call(op.name, [tensor([1, ...sps, 1, 8]), '_'], { data_layout: `N${sp}C8c`, kernel_layout: `${sp}IO`, channels: 4, kernel_size: 1 }));
  out.push(call(op.name, [tensor([1, 3, ...fill(nd - 1, 5), 4, 2]), '_'], { data_layout: `NC${sp}2${sp.at(-1)!.toLowerCase()}`, channels: 4, kernel_size: 3 }));
  out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)]), '_'], { channels: 4, kernel_size: 3, kernel_layout: `OI${sp}4q` })); // not a layout
  return out;
}

/**
 * nn.contrib_conv2d_NCHWc (Conv2DRel with data_layout NCHW8c and kernel_layout OIHW by
 * default): calls on its default layouts (packed data, plain and packed weights, every
 * per-axis attribute differing between axes), then nn.conv2d's whole sweep with the data
 * layout spelled out where a case leaves it to the default.
 */
function nchwcSweep(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  // data NCHW (1, 16, 7, 6) as NCHW8c = (1, 2, 7, 6, 8)
  const d: Dim[] = [1, 2, 7, 6, 8];
  for (const a of [
    { channels: 8, kernel_size: 3 },
    { channels: 16, kernel_size: [3, 1], strides: [1, 2] },
    { channels: 8, kernel_size: 3, dilation: [2, 1], padding: [1, 0, 0, 2] },
    { channels: 8, kernel_size: 1, kernel_layout: 'OIHW8i8o' },
    { channels: 16, kernel_size: [1, 3], kernel_layout: 'OIHW8i8o', out_layout: 'NCHW' },
    { channels: 16, kernel_size: 1, groups: 2 },
    { channels: 4, kernel_size: 1 }, // 4 result channels do not split by 8
  ] as Attrs[])
    out.push(call(op.name, [tensor(d), '_'], a));
  for (const a of [{}, { strides: [2, 1] }, { padding: [0, 1] }, { channels: 8 }, { kernel_size: [3, 1] }] as Attrs[]) {
    out.push(call(op.name, [tensor(d), tensor([8, 16, 3, 1])], a));
    out.push(call(op.name, [tensor(d), tensor([1, 2, 1, 3, 8, 8])], { kernel_layout: 'OIHW8i8o', ...a }));
  }
  out.push(call(op.name, [tensor(['n', 2, 7, 6, 8]), '_'], { channels: 8, kernel_size: 3 }));
  out.push(call(op.name, [tensor([1, 2, 7, 6, 4]), '_'], { channels: 8, kernel_size: 3 })); // a sub-axis of 4 in NCHW8c
  out.push(call(op.name, [tensor([1, 16, 7, 6]), '_'], { channels: 8, kernel_size: 3 })); // NCHW data under the default NCHW8c
  out.push(call(op.name, [tensor(d), tensor([8, 15, 3, 3])])); // the weight's I is not C = 16
  for (const c of convSweep(2)(op)) out.push(c.attrs?.['data_layout'] === undefined ? { ...c, attrs: { ...c.attrs, data_layout: 'NCHW' } } : c);
  return out;
}

function convSweep(nd: number): CaseGenerator {
  return (op: OpInfo) => {
    const out: TypeofRequest[] = [];
    const datas: Shape[] = [
      [1, 3, ...fill(nd, 5)],
      ['n', 4, ...fill(nd, 3)],
      [2, 2, ...fill(nd - 1, 3), 0],
      [1, 4, ...fill(nd - 1, 2), 'n'],
    ];
    const pads = [0, 1, fill(nd, 1), [...fill(nd, 0), ...fill(nd, 2)]];
    for (const last of [false, true]) {
      const lay = (a: Attrs): Attrs => (last ? { ...a, data_layout: LAST[nd - 1]!, kernel_layout: KLAST[nd - 1]! } : a);
      const d = (s: Shape): string => tensor(last ? toLast(s) : s);
      const w = (s: Shape, dtype = 'float32'): string => tensor(last ? wLast(s) : s, dtype);
      for (const s of last ? datas.slice(0, 2) : datas) {
        // the weight inferred from channels and kernel_size
        for (const a of combos({ strides: [1, 2], padding: pads, kernel_size: [1, 3], channels: [4] })) out.push(call(op.name, [d(s), '_'], lay(a)));
        for (const a of combos({ dilation: [2, fill(nd, 2)], kernel_size: [2, fill(nd, 3)], channels: [2] })) out.push(call(op.name, [d(s), '_'], lay(a)));
        for (const a of combos({ groups: [2, 4], channels: [2, 4, 6], kernel_size: [1] })) {
          out.push(call(op.name, [d(s), '_'], lay(a)));
          // a given weight: grouped (channels, C / groups, k) and depthwise (C, channels / C, k)
          const c = s[1] as number;
          out.push(call(op.name, [d(s), w([a.channels as number, Math.max(1, Math.floor(c / (a.groups as number))), ...fill(nd, 1)])], lay(a)));
          out.push(call(op.name, [d(s), w([c, Math.max(1, Math.floor((a.channels as number) / c)), ...fill(nd, 1)])], lay(a)));
        }
        // a given weight, no channels / kernel_size (or one of them)
        const cin = s[1]!;
        for (const k of [1, 3]) {
          for (const a of combos({ strides: [1, 2], padding: [0, 1] })) out.push(call(op.name, [d(s), w([4, cin, ...fill(nd, k)])], lay(a)));
          out.push(call(op.name, [d(s), w([4, cin, ...fill(nd, k)])], lay({ kernel_size: k, padding: 1 })));
          out.push(call(op.name, [d(s), w([4, cin, ...fill(nd, k)])], lay({ kernel_size: 2, padding: 1 })));
          out.push(call(op.name, [d(s), w([4, cin, ...fill(nd, k)])], lay({ channels: 4, padding: 1 })));
          out.push(call(op.name, [d(s), w([4, cin, ...fill(nd, k)])], lay({ channels: 3 })));
        }
        for (const g of [2, 3])
          out.push(call(op.name, [d(s), w([6, 2, ...fill(nd, 1)])], lay({ groups: g })), call(op.name, [d(s), w([4, 1, ...fill(nd, 1)])], lay({ groups: g })));
        out.push(call(op.name, [d(s), w([4, 'n', ...fill(nd, 1)])], lay({})));
      }
      out.push(...asymmetricConv(op, nd, lay, d, w));
    }
    out.push(...packedConv(op, nd));
    // depthwise with a channel multiplier: the weight (C, channels / C, k...)
    for (const [c, m] of [
      [2, 2],
      [3, 2],
      [4, 1],
    ] as const) {
      out.push(call(op.name, [tensor([1, c, ...fill(nd, 3)]), tensor([c, m, ...fill(nd, 3)])], { groups: c, channels: c * m, kernel_size: 3 }));
      out.push(call(op.name, [tensor([1, c, ...fill(nd, 3)]), tensor([c, m, ...fill(nd, 3)])], { groups: c }));
    }
    // out_layout and out_dtype, permuted layouts
    const s0: Shape = [1, 3, ...fill(nd, 5)];
    out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, out_layout: LAST[nd - 1]! }));
    out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, out_dtype: 'float16' }));
    out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, kernel_layout: [...KCANON[nd - 1]!].reverse().join('') }));
    out.push(
      call(op.name, [tensor([3, 1, ...fill(nd, 5)]), '_'], {
        channels: 4,
        kernel_size: 3,
        data_layout: `C${CANON[nd - 1]!.slice(2)}N`.replace(/^C(.*)N$/, 'CN$1'),
      }),
    );
    // invalid
    out.push(call(op.name, [tensor(s0), tensor([4, 2, ...fill(nd, 3)])])); // channel mismatch
    out.push(call(op.name, [tensor(s0), tensor([4, 3, ...fill(nd, 3)], 'float16')]));
    out.push(call(op.name, [tensor(s0), tensor([4, 3, ...fill(nd, 7)])])); // kernel larger than the input
    out.push(call(op.name, [tensor(s0.slice(1)), '_'], { kernel_size: 3, channels: 4 })); // rank too low
    out.push(call(op.name, [tensor([1, ...s0]), '_'], { kernel_size: 3, channels: 4 })); // rank too high
    out.push(call(op.name, [tensor(s0), tensor([4, 3])])); // weight rank
    out.push(call(op.name, [tensor(s0), '_'], { kernel_size: 3, channels: 4, data_layout: CANON[nd - 1]!.replace('C', 'X') }));
    out.push(call(op.name, [tensor(s0), '_'], { kernel_size: 3, channels: 4, kernel_layout: KCANON[nd % 3]! }));
    out.push(call(op.name, [tensor(s0), '_'], { kernel_size: 3, channels: 4, out_layout: 'NC' }));
    out.push(call(op.name, [tensor(s0), '_'], { kernel_size: 3 }));
    out.push(call(op.name, ['_', tensor([4, 3, ...fill(nd, 3)])]));
    out.push(call(op.name, ['_', '_'], { kernel_size: 3, channels: 4 }));
    out.push(call(op.name, [tensor(s0), '(float32, float32)']));
    return out;
  };
}

function convTranspose(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  const datas: Shape[] = [
    [1, 4, 3, 3],
    ['n', 2, 4, 1],
    [1, 4, 0, 2],
    [1, 2, 2, 'n'],
  ];
  for (const last of [false, true]) {
    const lay = (a: Attrs): Attrs => (last ? { ...a, data_layout: 'NHWC', kernel_layout: 'HWIO' } : a);
    const d = (s: Shape): string => tensor(last ? toLast(s) : s);
    const w = (s: Shape): string => tensor(last ? wLast(s) : s);
    for (const s of last ? datas.slice(0, 2) : datas) {
      for (const a of combos({ strides: [1, 2], padding: [0, [0, 0, 2, 1]], output_padding: [0, 1], kernel_size: [1, 3], channels: [4] }))
        out.push(call(op.name, [d(s), '_'], lay(a)));
      for (const a of combos({ groups: [2, 3], channels: [2, 3, 4], kernel_size: [2] })) out.push(call(op.name, [d(s), '_'], lay(a)));
      for (const a of combos({ dilation: [2, [1, 2]], kernel_size: [2], channels: [1] })) out.push(call(op.name, [d(s), '_'], lay(a)));
      const cin = s[1]!;
      for (const k of [1, 3]) {
        for (const a of combos({ strides: [1, 2], padding: [0, 2] })) out.push(call(op.name, [d(s), w([cin, 3, k, k])], lay(a)));
        out.push(call(op.name, [d(s), w([cin, 3, k, k])], lay({ kernel_size: k })));
        out.push(call(op.name, [d(s), w([cin, 3, k, k])], lay({ kernel_size: 2 })));
        out.push(call(op.name, [d(s), w([cin, 3, k, k])], lay({ channels: 3 })));
        out.push(call(op.name, [d(s), w([cin, 3, k, k])], lay({ channels: 6, groups: 2 })));
        out.push(call(op.name, [d(s), w([cin, 3, k, k])], lay({ groups: 2 })));
        out.push(call(op.name, [d(s), w([cin, 3, k, k])], lay({ channels: 4, kernel_size: k })));
      }
      out.push(call(op.name, [d(s), w([3, 3, 1, 1])], lay({})));
      out.push(call(op.name, [d(s), w([cin, 2, 0, 1])], lay({})));
      out.push(call(op.name, [d(s), w([cin, 2, 3, 3])], lay({ padding: 6 })));
    }
  }
  // per-axis attributes that differ between axes, on data whose spatial sizes differ
  for (const last of [false, true]) {
    const lay = (a: Attrs): Attrs => (last ? { ...a, data_layout: 'NHWC', kernel_layout: 'HWIO' } : a);
    const data = tensor(last ? toLast([1, 4, 5, 3]) : [1, 4, 5, 3]);
    for (const a of [
      { strides: [1, 2] },
      { strides: [3, 1] },
      { dilation: [1, 2] },
      { dilation: [2, 1] },
      { padding: [0, 1] },
      { padding: [1, 0, 0, 2] },
      { strides: [2, 3], output_padding: [1, 0] },
      { strides: [2, 3], output_padding: [0, 2] },
      { kernel_size: [3, 1] },
      { strides: [2, 1], dilation: [1, 3], padding: [1, 0, 2, 0], output_padding: [1, 2], kernel_size: [1, 3] },
    ] as Attrs[])
      out.push(call(op.name, [data, '_'], lay({ channels: 4, kernel_size: 2, ...a })));
    for (const a of [{}, { strides: [1, 2] }, { padding: [0, 1] }] as Attrs[])
      out.push(
        call(op.name, [data, tensor(last ? wLast([4, 3, 3, 1]) : [4, 3, 3, 1])], lay(a)),
        call(op.name, [data, tensor(last ? wLast([4, 3, 1, 2]) : [4, 3, 1, 2])], lay(a)),
      );
  }
  const s0: Shape = [1, 4, 3, 3];
  out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, output_padding: 1 })); // output_padding >= stride
  out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, output_padding: [1, 0], dilation: [2, 1] }));
  out.push(call(op.name, ['_', '_'], { channels: 4, kernel_size: 3, output_padding: 2, strides: 2 }));
  out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, out_layout: 'NHWC', out_dtype: 'float16' }));
  out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, kernel_layout: 'OIHW' }));
  out.push(call(op.name, [tensor(s0), '_'], { channels: 4, kernel_size: 3, kernel_layout: 'OIDHW' }));
  out.push(call(op.name, [tensor([1, 4, 3]), '_'], { channels: 4, kernel_size: 3 }));
  out.push(call(op.name, [tensor(s0), tensor([4, 3, 3])]));
  out.push(call(op.name, ['_', tensor([4, 3, 3, 3])]));
  out.push(call(op.name, [tensor(s0), '_']));
  return out;
}

function poolSweep(nd: number): CaseGenerator {
  return (op: OpInfo) => {
    const out: TypeofRequest[] = [];
    const shapes: [string, Shape][] = [
      [CANON[nd - 1]!, [1, 3, ...fill(nd, 5)]],
      [CANON[nd - 1]!, ['n', 2, ...fill(nd - 1, 4), 'n']],
      [LAST[nd - 1]!, [1, ...fill(nd, 4), 3]],
    ];
    const attrSets = combos({ pool_size: [2, fill(nd, 3)], strides: [1, 2], padding: [0, 1, [...fill(nd, 0), ...fill(nd, 1)]], ceil_mode: [false, true] });
    for (const [layout, s] of shapes) {
      for (const a of attrSets) out.push(call(op.name, [tensor(s)], layout === CANON[nd - 1] ? a : { ...a, layout }));
      for (const a of combos({ dilation: [2, fill(nd, 3)], pool_size: [2, 3], ceil_mode: [false, true], strides: [2, 3] }))
        out.push(call(op.name, [tensor(s)], layout === CANON[nd - 1] ? a : { ...a, layout }));
    }
    // per-axis attributes that differ between axes, on spatial sizes that differ, in both layouts
    for (const [layout, s] of [
      [CANON[nd - 1]!, [1, 3, ...axes(nd, ASYM)]],
      [LAST[nd - 1]!, [1, ...axes(nd, ASYM), 3]],
    ] as [string, Shape][]) {
      for (const a of [
        { pool_size: axes(nd, [1, 2, 3]) },
        { pool_size: axes(nd, [3, 1, 2]) },
        { pool_size: 2, strides: axes(nd, [1, 2, 3]) },
        { pool_size: 2, strides: axes(nd, [3, 1, 2]) },
        { pool_size: 2, dilation: axes(nd, [1, 2, 3]) },
        { pool_size: 2, dilation: axes(nd, [3, 1, 1]) },
        { pool_size: 2, padding: axes(nd, [0, 1, 2]) },
        { pool_size: 3, padding: [...axes(nd, [0, 1, 2]), ...axes(nd, [2, 0, 1])] },
        { pool_size: axes(nd, [2, 3, 1]), strides: axes(nd, [2, 3, 1]), ceil_mode: true },
        {
          pool_size: axes(nd, [3, 2, 2]),
          strides: axes(nd, [1, 3, 2]),
          dilation: axes(nd, [2, 1, 1]),
          padding: [...axes(nd, [1, 0, 1]), ...axes(nd, [0, 1, 1])],
          ceil_mode: true,
        },
      ] as Attrs[])
        out.push(call(op.name, [tensor(s)], layout === CANON[nd - 1] ? a : { ...a, layout }));
    }
    // zero-size and small inputs, windows beyond the input
    for (const a of combos({ pool_size: [1, 2, 3], padding: [0, 1], ceil_mode: [false, true], strides: [1, 3] }))
      out.push(call(op.name, [tensor([1, 2, ...fill(nd - 1, 2), 0])], a));
    if (op.attrs.some((a) => a.name === 'count_include_pad'))
      out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)])], { pool_size: 2, padding: 1, count_include_pad: true }));
    for (const s of shapesOfRank([0, 1, 2, 3, 4])) out.push(call(op.name, [tensor(s)]));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5), 2])]));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)])], { layout: CANON[nd % 3]! }));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)])], { layout: `${CANON[nd - 1]!}16c` }));
    out.push(...packedPools(op, nd));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)], 'int8')], { pool_size: 2 }));
    out.push(call(op.name, ['_']), call(op.name, ['(float32, float32)']));
    return out;
  };
}

/**
 * Packed layouts (relations/layout.ts) with per-axis attributes that differ between
 * axes: C split by 4 (NCHW4c), N and C split (NCHW4n4c, as TVM's tests, and NCHW2n4c,
 * whose sub-axes differ so that swapping them shows), C last
 * and split (NHWC8c), a symbolic outer C and an open spatial dim; then the layouts
 * a pool rejects: a split spatial axis, an invalid or foreign layout, the wrong rank.
 */
function packedPools(op: OpInfo, nd: number): TypeofRequest[] {
  const canon = CANON[nd - 1]!;
  const last = LAST[nd - 1]!;
  const spatial = canon.slice(2);
  const out: TypeofRequest[] = [];
  const attrSets: Attrs[] = [
    {},
    { pool_size: axes(nd, [3, 1, 2]), strides: axes(nd, [2, 1, 3]) },
    { pool_size: 2, dilation: axes(nd, [1, 2, 1]), padding: axes(nd, [1, 0, 2]), ceil_mode: true },
  ];
  for (const a of attrSets) {
    out.push(call(op.name, [tensor([1, 2, ...axes(nd, ASYM), 4])], { ...a, layout: `${canon}4c` }));
    out.push(call(op.name, [tensor([2, 3, ...axes(nd, ASYM), 4, 4])], { ...a, layout: `${canon}4n4c` }));
    out.push(call(op.name, [tensor([2, 3, ...axes(nd, ASYM), 2, 4])], { ...a, layout: `${canon}2n4c` }));
    out.push(call(op.name, [tensor([1, ...axes(nd, ASYM), 2, 8])], { ...a, layout: `${last}8c` }));
    out.push(call(op.name, [tensor(['n', 'c', ...axes(nd, ASYM), 4])], { ...a, layout: `${canon}4c` }));
  }
  out.push(call(op.name, [tensor([1, 2, '?', ...axes(nd - 1, ASYM), 4])], { pool_size: 2, layout: `${canon}4c` }));
  out.push(call(op.name, [tensor([2, 3, '_', ...axes(nd - 1, ASYM), 4, 4])], { pool_size: 2, strides: axes(nd, [1, 2, 3]), layout: `${canon}4n4c` }));
  out.push(call(op.name, [tensor([1, 2, ...axes(nd, ASYM), 4])], { layout: `${canon}4${spatial[0]!.toLowerCase()}` }));
  out.push(call(op.name, [tensor([1, 2, ...axes(nd, ASYM), 4])], { layout: `${canon}4x` }));
  out.push(call(op.name, [tensor([1, 2, ...axes(nd, ASYM), 4])], { layout: `${canon}Z` }));
  out.push(call(op.name, [tensor([1, 2, ...axes(nd, ASYM)])], { layout: `${canon}4c` }));
  return out;
}

function globalPool(op: OpInfo): TypeofRequest[] {
  return [
    ...shapesOfRank([2, 3, 4]).flatMap((s) => [
      call(op.name, [tensor(s)]),
      call(op.name, [tensor(s)], { layout: 'NHWC' }),
      call(op.name, [tensor(s)], { layout: 'HWCN' }),
    ]),
    call(op.name, [tensor([1, 3, 5, 5])], { layout: 'NCHW16c' }),
    call(op.name, [tensor([1, 3, 5, 6, 16])], { layout: 'NCHW16c' }),
    call(op.name, [tensor([2, 3, 5, 6, 4, 4])], { layout: 'NCHW4n4c' }),
    call(op.name, [tensor([2, 3, 5, 6, 2, 4])], { layout: 'NCHW2n4c' }),
    call(op.name, [tensor([1, 7, 6, 2, 8])], { layout: 'NHWC8c' }),
    call(op.name, [tensor(['n', 'c', 5, '?', 4])], { layout: 'NCHW4c' }),
    call(op.name, [tensor([1, 3, 5, 6, 2])], { layout: 'NCHW2w' }),
    call(op.name, [tensor([1, 3, 5, 6, 2])], { layout: 'NCHW2q' }),
    call(op.name, [tensor([1, 3, 5, 5])], { layout: 'NCW' }),
    call(op.name, [tensor([1, 3, 5, 5])], { out_layout: 'NHWC' }),
    call(op.name, [tensor([1, 3, 5, 5, 2])]),
    call(op.name, ['_']),
  ];
}

function adaptiveSweep(nd: number): CaseGenerator {
  return (op: OpInfo) => {
    const out: TypeofRequest[] = [];
    const sizes = [null, 1, 3, [2], ...(nd > 1 ? [[...fill(nd - 1, 2), 7], axes(nd, [3, 1, 2]), axes(nd, [1, 2, 3])] : [])];
    for (const s of [
      [1, 3, ...fill(nd, 5)],
      ['n', 2, ...fill(nd - 1, 0), 'n'],
      [2, 1, ...fill(nd, 1)],
      [1, 2, ...axes(nd, ASYM)],
    ] as Shape[]) {
      for (const o of sizes) {
        out.push(call(op.name, [tensor(s)], { output_size: o }));
        out.push(call(op.name, [tensor(toLast(s))], { output_size: o, layout: LAST[nd - 1]! }));
      }
    }
    for (const s of shapesOfRank([0, 1, 2, 3, 4])) out.push(call(op.name, [tensor(s)], { output_size: 2 }));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)])], { output_size: 2, layout: CANON[nd % 3]! }));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)])], { output_size: 2, out_layout: LAST[nd - 1]! }));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)])], { output_size: fill(nd + 1, 2) }));
    out.push(call(op.name, [tensor([1, 3, ...fill(nd, 5)])], { output_size: 0 }));
    out.push(call(op.name, ['_'], { output_size: 2 }));
    return out;
  };
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  Conv1D: convSweep(1),
  Conv2D: (op: OpInfo) => (op.name === 'nn.contrib_conv2d_NCHWc' ? nchwcSweep(op) : convSweep(2)(op)),
  Conv3D: convSweep(3),
  Conv2DTranspose: convTranspose,
  Pool1D: poolSweep(1),
  Pool2D: poolSweep(2),
  Pool3D: poolSweep(3),
  GlobalPool2D: globalPool,
  AdaptivePool1D: adaptiveSweep(1),
  AdaptivePool2D: adaptiveSweep(2),
  AdaptivePool3D: adaptiveSweep(3),
};
