// Hash-consing of plain data before it is cached: a copy in which plain objects and
// arrays of equal contents are one object. A compiled relation library repeats the same
// spans, patterns and templates in every plan, in each plan's semi-naive variants and in
// its rule; `v8.serialize` keeps shared objects shared, and `v8.deserialize` pays per
// object, so the copy reads back in about half the time (typing/compiled-cache.ts).
//
// Only values are merged: two objects are merged when they have the same prototype (plain
// object or array), the same own keys in the same order, and equal values under each key
// (primitives by Object.is, objects by this same equality). Maps are copied with their
// values shared; Sets and typed arrays are kept as they are. A Set element or Map key that
// is an object, a sparse array or a cycle makes the value unshareable (merging could
// shrink a Set or lose a hole): then `shareEqualValues` returns null and the caller keeps
// the original.

class Unshareable extends Error {}

/** A copy of `root` with equal plain objects and arrays made one object; null when `root` holds something merging could change. */
export function shareEqualValues<T>(root: T): T | null {
  /** Each object met → its copy (the one object standing for all equal ones). */
  const copyOf = new Map<object, object>();
  /** Content key → the object with that content. */
  const byContent = new Map<string, object>();
  /** Each copy → a number naming it in the content keys of the objects holding it. */
  const numberOf = new Map<object, number>();
  const inProgress = new Set<object>();

  const keyOf = (x: unknown): string => {
    switch (typeof x) {
      case 'string':
        return `s${x.length}:${x}`;
      case 'number':
        return Object.is(x, -0) ? 'n-0' : `n${x}`;
      case 'bigint':
        return `b${x}`;
      case 'boolean':
        return x ? 't' : 'f';
      case 'undefined':
        return 'u';
      case 'object':
        return x === null ? 'z' : `o${numberOf.get(x)!}`;
      default:
        throw new Unshareable(); // functions and symbols are not plain data
    }
  };

  const share = (o: unknown): unknown => {
    if (o === null || typeof o !== 'object') return o;
    const done = copyOf.get(o);
    if (done !== undefined) return done;
    if (inProgress.has(o)) throw new Unshareable();
    inProgress.add(o);
    let copy: object;
    let content: string | null = null;
    if (ArrayBuffer.isView(o)) copy = o;
    else if (o instanceof Set) {
      for (const x of o) if (x !== null && typeof x === 'object') throw new Unshareable();
      copy = o;
    } else if (o instanceof Map) {
      const m = new Map<unknown, unknown>();
      for (const [k, x] of o as Map<unknown, unknown>) {
        if (k !== null && typeof k === 'object') throw new Unshareable();
        m.set(k, share(x));
      }
      copy = m;
    } else if (Array.isArray(o)) {
      const items: unknown[] = new Array<unknown>(o.length);
      const parts: string[] = ['A'];
      for (let i = 0; i < o.length; i++) {
        if (!(i in o)) throw new Unshareable();
        items[i] = share(o[i]);
        parts.push(keyOf(items[i]));
      }
      copy = items;
      content = parts.join(',');
    } else {
      const proto = Object.getPrototypeOf(o) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new Unshareable();
      const fields: Record<string, unknown> = proto === null ? (Object.create(null) as Record<string, unknown>) : {};
      const parts: string[] = [proto === null ? 'N' : 'O'];
      for (const name of Object.keys(o)) {
        const x = share((o as Record<string, unknown>)[name]);
        fields[name] = x;
        parts.push(`${name.length}:${name}=${keyOf(x)}`);
      }
      copy = fields;
      content = parts.join(',');
    }
    if (content !== null) {
      const same = byContent.get(content);
      if (same !== undefined) copy = same;
      else byContent.set(content, copy);
    }
    if (!numberOf.has(copy)) numberOf.set(copy, numberOf.size);
    copyOf.set(o, copy);
    inProgress.delete(o);
    return copy;
  };

  try {
    return share(root) as T;
  } catch (e) {
    if (e instanceof Unshareable) return null;
    throw e;
  }
}
