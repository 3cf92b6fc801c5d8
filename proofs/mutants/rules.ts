// Mutations of the rule files (relations/*.rules): the same kinds of small realistic
// bugs as the twins' mutations (see mutation.ts), planted in the rules instead. Several
// are per-axis bugs (one axis's stride, dilation or size read for another) that only
// cases whose axes differ can show.
import type { Mutation } from './mutation.js';

const CONV = 'relations/conv.rules';
const LIB = 'relations/lib.rules';
const TRANSFORM = 'relations/transform.rules';
const NN = 'relations/nn.rules';
const REDUCE = 'relations/reduce.rules';
const INDEXING = 'relations/indexing.rules';
const CREATION = 'relations/creation.rules';
const BROADCAST = 'relations/broadcast.rules';
const BITSERIAL = 'relations/bitserial.rules';
const VISION = 'relations/vision.rules';
const LAYOUT = 'relations/layout.rules';

const CONV2D_GENERAL = '(X1 + P1 - (K1 - 1) * D1 - 1) / S1 + 1].';
const CONV2D_FAST = '(Wd + P1 - (K1 - 1) * D1 - 1) / S1 + 1], OD) :-';

export const MUTATIONS: readonly Mutation[] = [
  // ---- per-axis bugs in the convolutions and pools
  { id: 'rules-conv2d-width-uses-height-dilation', file: CONV, find: CONV2D_GENERAL, replace: CONV2D_GENERAL.replace('* D1', '* D0'), ops: ['nn.conv2d'], what: 'the second spatial axis computed with the first axis\'s dilation (general path)' },
  { id: 'rules-conv2d-fast-width-uses-height-dilation', file: CONV, find: CONV2D_FAST, replace: CONV2D_FAST.replace('* D1', '* D0'), ops: ['nn.conv2d'], what: 'the second spatial axis computed with the first axis\'s dilation (NCHW fast path)' },
  { id: 'rules-conv2d-width-uses-height-stride', file: CONV, find: CONV2D_GENERAL, replace: CONV2D_GENERAL.replace('/ S1', '/ S0'), ops: ['nn.conv2d'], what: 'the second spatial axis computed with the first axis\'s stride (general path)' },
  { id: 'rules-conv2d-fast-width-uses-height-stride', file: CONV, find: CONV2D_FAST, replace: CONV2D_FAST.replace('/ S1', '/ S0'), ops: ['nn.conv2d'], what: 'the second spatial axis computed with the first axis\'s stride (NCHW fast path)' },
  { id: 'rules-conv2d-width-uses-height-padding', file: CONV, find: CONV2D_GENERAL, replace: CONV2D_GENERAL.replace('X1 + P1', 'X1 + P0'), ops: ['nn.conv2d'], what: 'the second spatial axis padded with the first axis\'s padding' },
  { id: 'rules-conv2d-width-uses-height-kernel', file: CONV, find: CONV2D_GENERAL, replace: CONV2D_GENERAL.replace('(K1 - 1)', '(K0 - 1)'), ops: ['nn.conv2d'], what: 'the second spatial axis computed with the first axis\'s kernel size' },
  { id: 'rules-conv2d-dilated-kernel-off-by-one', file: CONV, find: CONV2D_GENERAL, replace: CONV2D_GENERAL.replace('(K1 - 1) * D1 - 1)', '(K1 - 1) * D1)'), ops: ['nn.conv2d'], what: 'an off-by-one in the dilated kernel extent of the second axis' },
  { id: 'rules-conv3d-depth-stride-swapped', file: CONV, find: '(X2 + P2 - (K2 - 1) * D2 - 1) / S2 + 1].', replace: '(X2 + P2 - (K2 - 1) * D2 - 1) / S1 + 1].', ops: ['nn.conv3d'], what: 'the third spatial axis computed with the second axis\'s stride' },
  { id: 'rules-conv1d-no-dilation', file: CONV, find: 'Y = [N, Co, (X0 + P0 - (K0 - 1) * D0 - 1) / S0 + 1].', replace: 'Y = [N, Co, (X0 + P0 - (K0 - 1) - 1) / S0 + 1].', ops: ['nn.conv1d'], what: 'the dilation ignored' },
  { id: 'rules-conv2d-transpose-output-padding-swapped', file: CONV, find: '(X1 - 1) * S1 + (K1 - 1) * D1 + 1 - P1 + E1]', replace: '(X1 - 1) * S1 + (K1 - 1) * D1 + 1 - P1 + E0]', ops: ['nn.conv2d_transpose'], what: 'the second axis\'s output_padding read from the first axis' },
  { id: 'rules-conv2d-transpose-stride-swapped', file: CONV, find: '(X1 - 1) * S1 + (K1 - 1) * D1 + 1 - P1 + E1]', replace: '(X1 - 1) * S0 + (K1 - 1) * D1 + 1 - P1 + E1]', ops: ['nn.conv2d_transpose'], what: 'the second axis\'s stride read from the first axis' },
  { id: 'rules-conv-transpose-nd-dilation-dropped', file: 'relations/conv-transpose.rules', find: 'k((X - 1) * S + (K - 1) * Dl + 1 - P + E)', replace: 'k((X - 1) * S + (K - 1) + 1 - P + E)', ops: ['nn.conv1d_transpose', 'nn.conv3d_transpose'], what: 'the dilation ignored in the 1-D and 3-D transposed convolutions' },
  { id: 'rules-conv-transpose-nd-groups-dropped', file: 'relations/conv-transpose.rules', find: 'tc_kc(w(Key, WS), Key, k(O * G), Kw)', replace: 'tc_kc(w(Key, WS), Key, k(O), Kw)', ops: ['nn.conv1d_transpose', 'nn.conv3d_transpose'], what: 'the output channels of a given weight not multiplied by groups' },
  { id: 'rules-pool2d-width-uses-height-window', file: CONV, find: 'Y = [N, C, (X0 + A0) / S0 + 1, (X1 + A1) / S1 + 1 | Ex], layout_pick(Y, Q, OS).', replace: 'Y = [N, C, (X0 + A0) / S0 + 1, (X1 + A0) / S1 + 1 | Ex], layout_pick(Y, Q, OS).', ops: ['nn.max_pool2d', 'nn.avg_pool2d'], what: 'the second axis\'s window and padding read from the first axis' },
  { id: 'rules-pool3d-stride-swapped', file: CONV, find: 'Y = [N, C, (X0 + A0) / S0 + 1, (X1 + A1) / S1 + 1, (X2 + A2) / S2 + 1 | Ex]', replace: 'Y = [N, C, (X0 + A0) / S0 + 1, (X1 + A1) / S2 + 1, (X2 + A2) / S1 + 1 | Ex]', ops: ['nn.max_pool3d', 'nn.avg_pool3d'], what: 'the strides of the last two axes swapped' },
  { id: 'rules-pool-small-guard-dropped', file: CONV, find: 'cv_psmall([_, X|_], [_, P|_], [_, B|_], X + P, B) :- X + P < B.', replace: 'cv_psmall([_, X|_], [_, P|_], [_, B|_], X + P, B) :- X + P < B - 1.', ops: ['nn.max_pool2d', 'nn.avg_pool3d'], what: 'the window-fits check of the second axis off by one' },
  { id: 'rules-conv-out-layout-default', file: LIB, find: 'layout_or("", L, L).', replace: 'layout_or("", _, "NCHW").', ops: ['nn.conv2d'], what: 'a wrong default: out_layout "" means NCHW instead of the data layout' },
  // ---- packed layouts (relations/layout.rules and the pools over them)
  { id: 'rules-layout-pick5-last-swapped', file: LAYOUT, find: 'layout_pick(S, [A, B, C, D, E], [S[A], S[B], S[C], S[D], S[E]]).', replace: 'layout_pick(S, [A, B, C, D, E], [S[A], S[B], S[C], S[E], S[D]]).', ops: ['nn.max_pool2d', 'nn.avg_pool2d'], what: 'a pick of five axes (a packed 2-D layout such as NCHW4c) that swaps its last two' },
  { id: 'rules-global-pool-sub-axes-dropped', file: CONV, find: 'Y = [S[I0], S[I1], 1, 1 | Ex]', replace: 'Y = [S[I0], S[I1], 1, 1]', ops: ['nn.global_avg_pool2d', 'nn.global_max_pool2d'], what: 'a packed layout\'s sub-axes dropped from the global pool\'s result' },
  { id: 'rules-layout-inverse-skipped', file: CONV, find: 'cv_px(2, K0, St0, Dl0, P0, CM, L), cv_pool_view("NCHW", L, P, Q),', replace: 'cv_px(2, K0, St0, Dl0, P0, CM, L), cv_pool_view("NCHW", L, P, _), Q = P,', ops: ['nn.max_pool2d', 'nn.avg_pool2d'], what: 'a layout\'s index list used where its inverse is needed (right only for self-inverse layouts such as NCHW4c, wrong for NHWC8c)' },
  // ---- shared helpers
  { id: 'rules-axis-index-off-by-one', file: LIB, find: 'axis_index(Axis, R, Axis) :- Axis >= 0, Axis < R.', replace: 'axis_index(Axis, R, Axis) :- Axis >= 0, Axis <= R.', ops: ['concatenate', 'split'], what: 'an axis equal to the rank accepted' },
  { id: 'rules-broadcast-rhs-one-dropped', file: LIB, find: 'bdim(A, B, A) :- B == 1.', replace: 'bdim(A, B, A) :- B == 1, A == 1.', ops: ['add'], what: 'a dropped case: broadcasting a 1 on the right' },
  { id: 'rules-keepdims-keeps-size', file: LIB, find: 'reduce_kept(_, true, Rest, [1|Rest]).', replace: 'reduce_kept(D, true, Rest, [D|Rest]).', ops: ['sum', 'mean'], what: 'keepdims keeps the reduced dim\'s size instead of 1' },
  { id: 'rules-dtype-float16-is-float32', file: LIB, find: 'dtype_name("float16", float16).', replace: 'dtype_name("float16", float32).', ops: ['cast'], what: 'a dtype name mapped to the wrong dtype' },
  // ---- shapes
  { id: 'rules-reshape-merge-adds', file: TRANSFORM, find: 'rs([A, B|S], [-3|Ns], Z, [A * B|Out])', replace: 'rs([A, B|S], [-3|Ns], Z, [A + B|Out])', ops: ['reshape'], what: '-3 merges two dims by adding them' },
  { id: 'rules-transpose-default-identity', file: TRANSFORM, find: 'Out = tensor(reverse(S), D) :- Transpose(tensor(S, D), Out; axes: none), is_list(S).', replace: 'Out = tensor(S, D) :- Transpose(tensor(S, D), Out; axes: none), is_list(S).', ops: ['transpose'], what: 'a wrong default: axes=None keeps the order instead of reversing it' },
  { id: 'rules-expand-dims-at-front', file: TRANSFORM, find: 'OS = append(S[:I], append(Ones, S[I:]))', replace: 'OS = append(Ones, S)', ops: ['expand_dims'], what: 'the new axes always inserted at the front' },
  { id: 'rules-squeeze-guard-dropped', file: TRANSFORM, find: 'drop_ones([X|T], [X|R]) :- X != 1, drop_ones(T, R).', replace: 'drop_ones([X|T], [X|R]) :- drop_ones(T, R).', ops: ['squeeze'], what: 'a dropped guard: a 1 may also be kept' },
  { id: 'rules-split-sections-off-by-one', file: TRANSFORM, find: 'set_at(S, I, S[I] / N, PS)', replace: 'set_at(S, I, S[I] / N + 1, PS)', ops: ['split'], what: 'an off-by-one in the section size' },
  { id: 'rules-split-index-bound-off-by-one', file: TRANSFORM, find: 'split_bad(_, [X|_], N) :- X >= N.', replace: 'split_bad(_, [X|_], N) :- X > N.', ops: ['split'], what: 'an index equal to the dimension accepted' },
  { id: 'rules-take-batch-dims-ignored', file: TRANSFORM, find: 'OS = append(S[:I], append(IS[B:], S[I + 1:]))', replace: 'OS = append(S[:I], append(IS, S[I + 1:]))', ops: ['take'], what: 'batch_dims not dropped from the indices\' shape' },
  { id: 'rules-concatenate-multiplies', file: TRANSFORM, find: "sh_cat_dim(Fs, I, sum(Kn)) :- sh_cat_dyn(Fs, I, false), sh_cat_column(Fs, I, I, Kn).", replace: "sh_cat_dim(Fs, I, prod(Kn)) :- sh_cat_dyn(Fs, I, false), sh_cat_column(Fs, I, I, Kn).", ops: ['concatenate'], what: 'the concatenation axis multiplied instead of summed' },
  { id: 'rules-strided-slice-negative-stride-off-by-one', file: TRANSFORM, find: 'sh_len(B, E, S, max((B - E - S - 1) / (0 - S), 0)) :- S < 0.', replace: 'sh_len(B, E, S, max((B - E - S) / (0 - S), 0)) :- S < 0.', ops: ['strided_slice'], what: 'an off-by-one in the length of a negative-stride slice' },
  { id: 'rules-strided-slice-axes-index', file: TRANSFORM, find: 'is_list(Ax), sh_pos(I, Ax, 0, J), sh_ss_dim(J, D, Bs, Es, Ss, M, L)', replace: 'is_list(Ax), sh_pos(I, Ax, 0, J), sh_ss_dim(I, D, Bs, Es, Ss, M, L)', ops: ['strided_slice'], what: 'with axes, begin/end/strides read at the axis instead of its position in axes' },
  { id: 'rules-pad-crop-unchecked', file: TRANSFORM, find: 'sh_crop_bad([D|_], [B, A|_], I, I) :- D + B + A < 0.', replace: 'sh_crop_bad([D|_], [B, A|_], I, I) :- D + B + A < -1.', ops: ['nn.pad'], what: 'an off-by-one in the crop check: an axis cropped to size -1 is accepted' },
  { id: 'rules-pad-value-rank-unchecked', file: TRANSFORM, find: 'error("pad_val must be a scalar, got a tensor of shape {VS}") :- Pad(_, tensor(VS, _), _), VS \\= [].', replace: '', ops: ['nn.pad'], what: 'a dropped guard: a pad_val of rank > 0 is accepted' },
  { id: 'rules-pad-after-ignored', file: TRANSFORM, find: 'sh_pad([D|Ds], [B, A|Ps], [D + B + A|Os]) :- sh_pad(Ds, Ps, Os).', replace: 'sh_pad([D|Ds], [B, _|Ps], [D + B + B|Os]) :- sh_pad(Ds, Ps, Os).', ops: ['nn.pad'], what: 'the pad after an axis taken to equal the pad before it' },
  // ---- nn
  { id: 'rules-dense-units-ignored', file: NN, find: 'nn_dense_units(U, _, U) :- integer(U).', replace: 'nn_dense_units(U, O, O) :- integer(U).', ops: ['nn.dense'], what: 'units ignored in favour of the weight\'s rows (unknown weights stay open)' },
  { id: 'rules-batch-matmul-transpose-b-swapped', file: NN, find: 'nn_nk(true, N, K, N, K).\nnn_nk(false, K, N, N, K).', replace: 'nn_nk(false, N, K, N, K).\nnn_nk(true, K, N, N, K).', ops: ['nn.batch_matmul'], what: 'transpose_b read the wrong way round' },
  { id: 'rules-upsampling-scales-swapped', file: NN, find: 'nn_scaled(H, PH, QH, OH), nn_scaled(W, PW, QW, OW)', replace: 'nn_scaled(H, PW, QW, OH), nn_scaled(W, PH, QH, OW)', ops: ['nn.upsampling'], what: 'scale_h applied to the width and scale_w to the height' },
  { id: 'rules-resize2d-size-swapped', file: NN, find: 'nchw(L, S, [N, C, _, _]), nchw(L, OS, [N, C, OH, OW]).', replace: 'nchw(L, S, [N, C, _, _]), nchw(L, OS, [N, C, OW, OH]).', ops: ['image.resize2d'], what: 'the output height and width swapped' },
  { id: 'rules-round-half-even-dropped', file: NN, find: 'nn_round_half_even(F, M2, Q, F + F % 2) :- M2 == Q.', replace: 'nn_round_half_even(F, M2, Q, F) :- M2 == Q.', ops: ['nn.upsampling'], what: 'a half rounded down instead of to even' },
  // ---- reductions, indexing, creation, broadcasting
  { id: 'rules-reduce-empty-axes-none', file: REDUCE, find: 'reduce_axes([], R, _, Is) :- range_list(0, R, Is).', replace: 'reduce_axes([], _, _, []).', ops: ['sum', 'max'], what: 'axis=[] reduces nothing instead of every axis' },
  { id: 'rules-topk-k-not-clamped', file: INDEXING, find: 'ix_topk_k(K, N, N) :- K < 1.', replace: 'ix_topk_k(K, _, 1) :- K < 1.', ops: ['topk'], what: 'k < 1 gives 1 instead of the whole axis' },
  { id: 'rules-sequence-mask-batch-axis', file: INDEXING, find: 'B = S[1 - A], ix_known(B).', replace: 'B = S[A], ix_known(B).', ops: ['sequence_mask'], what: 'the batch dim read at the time axis' },
  { id: 'rules-arange-float-stop-ignored', file: CREATION, find: 'cr_range(Stop, Start, Start, Stop) :- Stop \\= none.', replace: 'cr_range(Stop, Start, Start, Stop) :- integer(Stop).', ops: ['arange'], what: 'a float stop is not taken (only an int one): arange with float bounds has no result' },
  { id: 'rules-arange-rounds-down', file: CREATION, find: 'N = max(-((Lo - Hi) / St), 0), dtype_name(T, DT).', replace: 'N = max((Hi - Lo) / St, 0), dtype_name(T, DT).', ops: ['arange'], what: 'the length rounded down instead of up' },
  { id: 'rules-broadcast-compare-dtype', file: BROADCAST, find: 'Out = tensor(S, bool) :- BroadcastCompare(tensor(S1, D), tensor(S2, D), Out), ew_bshape(S1, S2, S).', replace: 'Out = tensor(S, D) :- BroadcastCompare(tensor(S1, D), tensor(S2, D), Out), ew_bshape(S1, S2, S).', ops: ['less', 'equal'], what: 'a comparison keeps the input dtype instead of bool' },
  // ---- bit-serial operators and vision.proposal
  { id: 'rules-bitpack-bit-axis-before', file: BITSERIAL, find: 'Out = tensor(append(PS[:X], append([B], PS[X:])), PT) :-', replace: 'Out = tensor(append(PS[:X + 1], append([B], PS[X + 1:])), PT) :-', ops: ['nn.bitpack'], what: 'the bit planes inserted one position after bit_axis' },
  { id: 'rules-bitpack-divisibility-dropped', file: BITSERIAL, find: 'D = S[A], D % WB != 0.', replace: 'D = S[A], D % 1 != 0.', ops: ['nn.bitpack'], what: 'a dropped guard: a packed dim that is not a whole number of words accepted' },
  { id: 'rules-bitserial-conv2d-width-uses-height-stride', file: BITSERIAL, find: '(W + PW - KW) / SW + 1]).', replace: '(W + PW - KW) / SH + 1]).', ops: ['nn.bitserial_conv2d'], what: 'the second spatial axis computed with the first axis\'s stride' },
  { id: 'rules-bitserial-conv2d-width-uses-height-padding', file: BITSERIAL, find: '[PT + PB, PL + PR]) :-', replace: '[PT + PB, PT + PB]) :-', ops: ['nn.bitserial_conv2d'], what: 'the second spatial axis padded with the first axis\'s padding' },
  { id: 'rules-bitserial-conv2d-width-uses-height-kernel', file: BITSERIAL, find: '(W + PW - KW) / SW + 1]).', replace: '(W + PW - KH) / SW + 1]).', ops: ['nn.bitserial_conv2d'], what: 'the second spatial axis computed with the first axis\'s kernel size' },
  { id: 'rules-bitserial-dense-keeps-last-dim', file: BITSERIAL, find: 'Out = tensor(append(S[:len(S) - 1], [U]), T) :- BitserialDense', replace: 'Out = tensor(S, T) :- BitserialDense', ops: ['nn.bitserial_dense'], what: 'the last dim kept instead of becoming units' },
  { id: 'rules-bitserial-dense-default-dtype', file: BITSERIAL, find: 'units: U, out_dtype: OT), is_list(S), len(S) >= 1, dtype_or(OT, D, T).', replace: 'units: U, out_dtype: OT), is_list(S), len(S) >= 1, dtype_or("", D, T).', ops: ['nn.bitserial_dense'], what: 'out_dtype ignored: the data\'s dtype always' },
  { id: 'rules-proposal-count-ignores-batch', file: VISION, find: 'Out = tensor([B * P, 5], D) :-', replace: 'Out = tensor([B + P - 1, 5], D) :-', ops: ['vision.proposal'], what: 'the proposal count B + P - 1 instead of B * P' },
  { id: 'rules-proposal-anchor-count-off', file: VISION, find: 'vi_anchors(Out, len(Ss) * len(Rs)) :-', replace: 'vi_anchors(Out, len(Ss) + len(Rs) - 1) :-', ops: ['vision.proposal'], what: 'anchors per position counted as scales + ratios - 1 instead of their product' },
  // ---- sparse, index tensors, matrix_set_diag
  { id: 'rules-unravel-index-dims-swapped', file: 'relations/sparse.rules', find: 'Out = tensor([R, N], D) :- UnravelIndex(', replace: 'Out = tensor([N, R], D) :- UnravelIndex(', ops: ['unravel_index'], what: 'swapped axes: the indices axis before the coordinates axis' },
  { id: 'rules-sparse-to-dense-length-constant', file: 'relations/sparse.rules', find: 'sp_index_length([_, K], K).', replace: 'sp_index_length([_, _], 2).', ops: ['sparse_to_dense'], what: 'a wrong constant: the coordinate length of 2-D sparse_indices taken as 2 whatever their second dim' },
  { id: 'rules-sparse-reshape-keeps-old-length', file: 'relations/sparse.rules', find: 'Out = tuple([tensor([N, R], ID), tensor([R], ND)]) :-\n    SparseReshape(tensor([N, _], ID)', replace: 'Out = tuple([tensor([N, K], ID), tensor([R], ND)]) :-\n    SparseReshape(tensor([N, K], ID)', ops: ['sparse_reshape'], what: 'the new coordinates keep the old coordinate length' },
  { id: 'rules-adv-index-rest-off-by-one', file: 'relations/index-tensors.rules', find: 'OS = append(B, S[len(Is) + 1:]).', replace: 'OS = append(B, S[len(Is):]).', ops: ['adv_index'], what: 'an off-by-one: the last indexed axis of data kept in the result' },
  { id: 'rules-strided-set-result-of-v', file: 'relations/index-tensors.rules', find: 'Out = Data :- StridedSet(Data, _, _, _, _, Out).', replace: 'Out = V :- StridedSet(_, V, _, _, _, Out).', ops: ['strided_set'], what: 'a swapped argument: the result takes v\'s type instead of data\'s' },
  { id: 'rules-matrix-set-diag-longest-uses-k2', file: 'relations/matrix.rules', find: 'L = min(M + min(K2, 0), N + min(0 - K1, 0))', replace: 'L = min(M + min(K2, 0), N + min(0 - K2, 0))', ops: ['matrix_set_diag'], what: 'a swapped attribute: the longest diagonal\'s column bound read from k2 instead of k1' },
  // ---- layout_transform
  { id: 'rules-layout-transform-dst-not-divided', file: 'relations/layout-transform.rules', find: 'lt_rescale([X0, X1, X2, X3], [F0, F1, F2, F3], [G0, G1, G2, G3], [X0 * F0 / G0, X1 * F1 / G1, X2 * F2 / G2, X3 * F3 / G3]).', replace: 'lt_rescale([X0, X1, X2, X3], [F0, F1, F2, F3], [G0, G1, G2, G3], [X0 * F0, X1 * F1, X2 * F2, X3 * F3]).', ops: ['layout_transform'], what: 'a dropped division: an axis split by dst_layout keeps its whole extent' },
  { id: 'rules-layout-transform-sub-axis-off-by-one', file: 'relations/layout-transform.rules', find: 'J = P[len(Fs) + At], layout_axes(Src, SA)', replace: 'J = P[len(Fs) + At + 1], layout_axes(Src, SA)', ops: ['layout_transform'], what: 'an off-by-one: the extent of a sub-axis of src_layout checked at the next position (the factors are no longer a default in the rules: layout_packing gives 1 for an unsplit axis)' },
  { id: 'rules-layout-transform-divisibility-dropped', file: 'relations/layout-transform.rules', find: 'E = Xs[I] * Fs[I], E % F != 0.', replace: 'E = Xs[I] * Fs[I], E % F != E % F.', ops: ['layout_transform'], what: 'a dropped guard: a non-divisible split is accepted' },
  { id: 'rules-matrix-set-diag-band-off-by-one', file: 'relations/matrix.rules', find: 'md_diag_tail(K1, K2, L, [K2 - K1 + 1, L]) :- K1 < K2.', replace: 'md_diag_tail(K1, K2, L, [K2 - K1, L]) :- K1 < K2.', ops: ['matrix_set_diag'], what: 'an off-by-one: a band of diagonals k1..k2 expects k2 - k1 rows in diagonal' },
  // ---- packed convolutions (cv_codec, cv_unpack, cv_pack)
  { id: 'rules-conv-packed-split-not-multiplied', file: CONV, find: 'cv_times(X, F, X * F) :- F > 1.', replace: 'cv_times(X, F, X) :- F > 1.', ops: ['nn.conv2d', 'nn.contrib_conv2d_NCHWc'], what: 'a split axis read as its outer extent (not times the factor)' },
  { id: 'rules-conv-packed-result-not-divided', file: CONV, find: 'cv_over(X, F, X / F) :- F > 1.', replace: 'cv_over(X, F, X) :- F > 1.', ops: ['nn.conv2d', 'nn.contrib_conv2d_NCHWc'], what: 'a split axis of the weight or result written unsplit' },
  { id: 'rules-conv-packed-divisibility-spatial-only', file: CONV, find: 'cv_axis_factor(Y, Fs, I, X, F), F > 1, X % F != 0.', replace: 'cv_axis_factor(Y, Fs, I, X, F), F > 1, X % F != 0, I > 1.', ops: ['nn.conv2d', 'nn.contrib_conv2d_NCHWc'], what: 'a dropped guard: the divisibility of split N and C never checked' },
];
