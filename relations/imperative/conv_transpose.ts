// Conv1DTranspose and Conv3DTranspose (nn.conv1d_transpose, nn.conv3d_transpose), after
// TVM's Conv1DTransposeRel and Conv3DTransposeRel (src/relay/op/nn/convolution.cc):
// the transposed convolution of conv.ts (convTransposeRel, whose header gives the
// formula and the deviations) for 1 and 3 spatial axes. The operators' layouts are
// limited by their declarations (relations/conv-transpose.rules) to NCW / NWC with IOW
// and NCDHW / NDHWC with IODHW.
import type { RelationFn } from './relation.js';
import { convTransposeRel } from './conv.js';

/** The relations of this file, by relation name (see registry.ts). */
export const RELATIONS: Readonly<Record<string, RelationFn>> = {
  Conv1DTranspose: convTransposeRel(1),
  Conv3DTranspose: convTransposeRel(3),
};
