// TVM's data layouts (include/tvm/tir/data_layout.h): the one owner of the layout
// encoding. A layout is a string of axes: a primal axis is an upper-case letter
// (`C`), a sub-axis is a factor and the lower-case letter of its primal axis (`16c`:
// C split by 16, the inner part). Every sub-axis needs its primal axis in the same
// layout; no axis appears twice. A packed dim maps to its primal extent as
// outer * factor; the way back divides, so the factor must divide the primal extent.
//
// Used by the imperative twins, the reference executor and the rules strategy (which
// hands every layout attribute to the rules as `layout_axes`, `layout_view` and
// `layout_packing` facts, once per distinct layout string: typing/layout-facts.ts,
// relations/layout.rules).

/** One axis of a layout: a primal axis (factor null) or a sub-axis of `primal` split by `factor`. */
export interface LayoutAxis {
  readonly primal: string;
  readonly factor: number | null;
}

/** A parsed layout, or the reason the string is not one. */
export type ParsedLayout = { readonly ok: true; readonly axes: readonly LayoutAxis[] } | { readonly ok: false; readonly reason: string };

const TOKEN = /[A-Z]|[0-9]+[a-z]/g;

/** `NCHW16c` → N, C, H, W, then C split by 16. */
export function parseLayout(layout: string): ParsedLayout {
  const tokens = layout.match(TOKEN) ?? [];
  if (tokens.join('') !== layout) return { ok: false, reason: 'primal axes are A-Z, sub-axes a factor and a-z (such as 16c)' };
  const axes: LayoutAxis[] = tokens.map((t) =>
    /^[A-Z]$/.test(t) ? { primal: t, factor: null } : { primal: t.slice(-1).toUpperCase(), factor: Number(t.slice(0, -1)) },
  );
  const seen = new Set<string>();
  for (const a of axes) {
    if (a.factor !== null && a.factor <= 0) return { ok: false, reason: 'a sub-axis factor must be positive' };
    const key = a.factor === null ? a.primal : a.primal.toLowerCase();
    if (seen.has(key)) return { ok: false, reason: `axis ${key} appears twice` };
    seen.add(key);
  }
  const missing = axes.find((a) => a.factor !== null && !seen.has(a.primal));
  if (missing !== undefined) return { ok: false, reason: `sub-axis ${missing.primal.toLowerCase()} without its primal axis ${missing.primal}` };
  return { ok: true, axes };
}

/**
 * The primal axes of parsed layout axes, sorted, as a string (`NCHW16c` → `CHNW`): two
 * layouts convert into each other (TVM's BijectiveLayout) iff their keys are equal, and
 * a layout has a view over its key (layoutView) as over a canonical layout.
 */
export function primalKey(axes: readonly LayoutAxis[]): string {
  return axes
    .filter((a) => a.factor === null)
    .map((a) => a.primal)
    .sort()
    .join('');
}

/**
 * How a layout sits over a canonical primal layout (`NCHW`): the position of each
 * canonical axis, and of each sub-axis with the canonical index of its primal axis.
 */
export interface LayoutView {
  readonly axes: readonly LayoutAxis[];
  /** position in the layout of each canonical axis */
  readonly primalAt: readonly number[];
  /** the sub-axes in layout order: position, canonical index of the primal axis, factor */
  readonly subs: readonly { readonly at: number; readonly of: number; readonly factor: number }[];
}

/** The view of `layout` over `canonical` (its primal axes must be exactly the canonical ones), or why not. */
export function layoutView(layout: string, canonical: string): LayoutView | string {
  const parsed = parseLayout(layout);
  if (!parsed.ok) return `layout "${layout}" is invalid: ${parsed.reason}`;
  const primals = parsed.axes.filter((a) => a.factor === null).map((a) => a.primal);
  if (primals.length !== canonical.length || [...canonical].some((c) => !primals.includes(c))) {
    return `layout "${layout}" is not supported (its primal axes must be those of ${canonical}, in any order, with optional sub-axes such as ${canonical}16${canonical[1]!.toLowerCase()})`;
  }
  const primalAt = [...canonical].map((c) => parsed.axes.findIndex((a) => a.factor === null && a.primal === c));
  const subs: { at: number; of: number; factor: number }[] = [];
  parsed.axes.forEach((a, at) => {
    if (a.factor !== null) subs.push({ at, of: canonical.indexOf(a.primal), factor: a.factor });
  });
  return { axes: parsed.axes, primalAt, subs };
}

/** The factor a canonical axis is split by in the view, or null. */
export function splitFactor(view: LayoutView, canonicalIndex: number): number | null {
  return view.subs.find((s) => s.of === canonicalIndex)?.factor ?? null;
}

/** The index of a packed element in the primal (canonical-order) tensor: outer * factor + inner per axis. */
export function primalIndex(view: LayoutView, packed: readonly number[]): number[] {
  return view.primalAt.map((at, c) => {
    const sub = view.subs.find((s) => s.of === c);
    return sub === undefined ? packed[at]! : packed[at]! * sub.factor + packed[sub.at]!;
  });
}

/** A concrete packed shape in canonical primal order (outer * factor per split axis). */
export function primalShape(view: LayoutView, packed: readonly number[]): number[] {
  return view.primalAt.map((at, c) => packed[at]! * (splitFactor(view, c) ?? 1));
}

/** A canonical primal shape in the layout (split axes divided by their factor), or why not. */
export function packedShape(view: LayoutView, primal: readonly number[]): number[] | string {
  const out: number[] = [];
  for (const [at, a] of view.axes.entries()) {
    const c = view.primalAt.indexOf(at);
    if (a.factor !== null) {
      out.push(a.factor);
      continue;
    }
    const f = splitFactor(view, c);
    if (f !== null && primal[c]! % f !== 0) return `axis ${a.primal} of size ${primal[c]} is not divisible by the factor ${f} of the layout`;
    out.push(primal[c]! / (f ?? 1));
  }
  return out;
}

/** The index of a primal (canonical-order) element in the packed tensor: outer = i / factor, inner = i % factor. */
export function packedIndex(view: LayoutView, primal: readonly number[]): number[] {
  return view.axes.map((a, at) => {
    const c = a.factor === null ? view.primalAt.indexOf(at) : view.subs.find((s) => s.at === at)!.of;
    const f = splitFactor(view, c);
    if (f === null) return primal[c]!;
    return a.factor === null ? Math.floor(primal[c]! / f) : primal[c]! % f;
  });
}

/** The view with each sub-axis factor replaced by the tensor's extent there (a pool copies sub-axes whatever their extent, as TVM). */
export function withSubExtents(view: LayoutView, shape: readonly number[]): LayoutView {
  return {
    ...view,
    subs: view.subs.map((s) => ({ ...s, factor: shape[s.at]! })),
    axes: view.axes.map((a, at) => (a.factor === null ? a : { ...a, factor: shape[at]! })),
  };
}

/**
 * The canonical primal layouts a layout attribute is placed over: data (NCW, NCHW,
 * NCDHW) and kernels (OIW.., and IOW.. for transposed convolutions). The rules get a
 * view of each layout of a program over every one of these with the same primal axes
 * (see typing/layout-facts.ts), so they look a view up instead of deriving it.
 */
export const CANONICAL_LAYOUTS: readonly string[] = ['NCW', 'NCHW', 'NCDHW', 'OIW', 'OIHW', 'OIDHW', 'IOW', 'IOHW', 'IODHW'];

/**
 * The views of `layout` over each canonical layout with the same primal axes, and over
 * its primal key (primalKey: what layout_transform reads), once each; none for an
 * invalid layout.
 */
export function canonicalViews(layout: string): { canonical: string; view: LayoutView }[] {
  const parsed = parseLayout(layout);
  if (!parsed.ok) return [];
  const key = primalKey(parsed.axes);
  const out: { canonical: string; view: LayoutView }[] = [];
  for (const canonical of CANONICAL_LAYOUTS.includes(key) ? CANONICAL_LAYOUTS : [...CANONICAL_LAYOUTS, key]) {
    if (canonical.length > layout.length) continue;
    const view = layoutView(layout, canonical);
    if (typeof view !== 'string') out.push({ canonical, view });
  }
  return out;
}
