// Cross-check sweep cases for relations/coordinates.rules: gather_nd and scatter_nd
// over data of rank 0-4 against coordinate vectors of every length, batch dims,
// mismatched dims; reverse_sequence over every pair of axes. Unknown, partial and
// symbolic arguments, integer and float indices, tuples.
import type { OpInfo } from '../../../relations/schema.js';
import type { TypeofRequest } from '../../../typing/typeof.js';
import { call, tensor, tuple, ALL_SHAPES, range, type CaseGenerator } from '../case-kit.js';

const IDX = 'int32';

function gatherND(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    for (const m of range(0, s.length + 1)) {
      out.push(
        call(op.name, [tensor(s), tensor([m], IDX)]),
        call(op.name, [tensor(s), tensor([m, 2], IDX)]),
        call(op.name, [tensor(s), tensor([m, 3, 1], 'int64')]),
      );
    }
  }
  // batch dims: matching, mismatched, too many, against a hole or a symbol
  for (const batch_dims of [0, 1, 2, 3]) {
    out.push(call(op.name, [tensor([2, 3, 4])], { batch_dims }), call(op.name, [tensor([2, 3, 4]), tensor([1, 2], IDX)], { batch_dims }));
    out.push(
      call(op.name, [tensor([2, 3, 4]), tensor([1, 2, 3], IDX)], { batch_dims }),
      call(op.name, [tensor([2, 3, 4]), tensor([1, 5], IDX)], { batch_dims }),
    );
    out.push(
      call(op.name, [tensor(['n', 3, 4]), tensor([1, 'm'], IDX)], { batch_dims }),
      call(op.name, [tensor(['_', 3]), tensor([1, 2], IDX)], { batch_dims }),
    );
  }
  // the first dim of indices unknown, symbolic or Any; float indices; unknown arguments; tuples
  out.push(
    call(op.name, [tensor([2, 3]), tensor(['_', 4], IDX)]),
    call(op.name, [tensor([2, 3]), tensor(['n', 4], IDX)]),
    call(op.name, [tensor([2, 3]), tensor(['?', 4], IDX)]),
  );
  out.push(
    call(op.name, [tensor([2, 3]), tensor([1, 4])]),
    call(op.name, ['_', tensor([1, 4], IDX)]),
    call(op.name, [tensor([2, 3]), '_']),
    call(op.name, ['_', tensor([], IDX)]),
  );
  out.push(
    call(op.name, [tensor([2, 3]), tensor([1, 4], IDX)], { index_rank: 1 }),
    call(op.name, [tuple([tensor([3])]), tensor([1], IDX)]),
    call(op.name, [tensor([3]), tuple([tensor([1], IDX)])]),
  );
  return out;
}

function scatterND(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    for (const m of range(0, s.length + 1)) {
      // the matching updates, and one of the wrong rank and one with a wrong dim
      out.push(call(op.name, [tensor(s), tensor([m, 2], IDX), tensor([2, ...s.slice(m)])]));
      out.push(call(op.name, [tensor(s), tensor([m, 2], IDX), tensor([2, ...s.slice(m), 1])]));
      out.push(call(op.name, [tensor(s), tensor([m], IDX), tensor([...s.slice(m)])], { mode: 'add' }));
      if (s.length > m) out.push(call(op.name, [tensor(s), tensor([m, 2], IDX), tensor([2, ...s.slice(m, -1), 7])]));
    }
  }
  out.push(call(op.name, [tensor([4, 3]), tensor([1, 2], IDX), tensor([5, 3])]), call(op.name, [tensor([4, 3]), tensor([1, 'n'], IDX), tensor(['n', 3])]));
  out.push(call(op.name, [tensor([4, 3]), tensor([1, '_'], IDX), tensor([2, 3])]), call(op.name, [tensor([4, '_']), tensor([1, 2], IDX), tensor([2, 3])]));
  out.push(call(op.name, [tensor([4, 3]), tensor(['_', 2], IDX), tensor([2, 3])]), call(op.name, [tensor([4, 3]), tensor(['?', 2], IDX), tensor([2, 3])]));
  out.push(call(op.name, [tensor([4, 3]), tensor([3, 2], IDX), tensor([2])]), call(op.name, [tensor([4, 3]), tensor([1, 2]), tensor([2, 3])]));
  out.push(
    call(op.name, ['_', tensor([1, 2], IDX), tensor([5, 3])]),
    call(op.name, ['_', tensor([1, 2], IDX), tensor([2, 3])]),
    call(op.name, [tensor([4, 3]), '_', tensor([2, 3])]),
  );
  out.push(
    call(op.name, [tensor([4, 3]), tensor([1, 2], IDX), '_']),
    call(op.name, [tensor([4, 3]), tensor([], IDX), tensor([2, 3])]),
    call(op.name, [tensor([4, 3], 'int32'), tensor([1, 2], IDX), tensor([2, 3])]),
  );
  out.push(call(op.name, [tuple([tensor([4])]), tensor([1, 2], IDX), tensor([2])]), call(op.name, [tensor([4]), tensor([1, 2], IDX), tuple([tensor([2])])]));
  return out;
}

function reverseSequence(op: OpInfo): TypeofRequest[] {
  const out: TypeofRequest[] = [];
  for (const s of ALL_SHAPES) {
    for (const batch_axis of range(-s.length - 1, s.length)) {
      const b = s.length > 0 ? s[(batch_axis + s.length) % s.length]! : 1;
      for (const seq_axis of [-1, 0, 1, s.length]) out.push(call(op.name, [tensor(s), tensor([b], IDX)], { batch_axis, seq_axis }));
    }
    out.push(call(op.name, [tensor(s), tensor([7], IDX)]));
  }
  out.push(
    call(op.name, [tensor([4, 3]), tensor([4])]),
    call(op.name, [tensor([4, 3]), tensor([2, 2], IDX)]),
    call(op.name, [tensor([4, 3]), tensor([], IDX)]),
  );
  out.push(
    call(op.name, [tensor(['n', 3]), tensor(['m'], IDX)]),
    call(op.name, [tensor(['_', 3]), tensor([4], IDX)]),
    call(op.name, [tensor([4, 3]), tensor(['_'], IDX)]),
  );
  out.push(
    call(op.name, ['_', tensor([4], IDX)]),
    call(op.name, [tensor([4, 3]), '_']),
    call(op.name, ['_', tensor([2, 2], IDX)]),
    call(op.name, [tensor([2, 3]), tensor([2], 'int64')]),
  );
  out.push(call(op.name, [tuple([tensor([4, 3])]), tensor([4], IDX)]), call(op.name, [tensor([4, 3]), tuple([tensor([4], IDX)])]));
  return out;
}

/** Sweep generators by relation name. */
export const GENERATORS: Readonly<Record<string, CaseGenerator>> = {
  GatherND: gatherND,
  ScatterND: scatterND,
  ReverseSequence: reverseSequence,
};
