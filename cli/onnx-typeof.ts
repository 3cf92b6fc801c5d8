// `shapelog typeof --onnx`: JSON lines on stdin, each one ONNX node call in the record
// format of ONNX's node conformance cases (typing/onnx/node-request.ts); one answer per
// line, `{"outputs": [...]}` or `{"error": "..."}`, whatever the line holds. Exit 1
// when any line's answer is an error.
import { typeNodeRequest, type NodeAnswer } from '../typing/onnx/node-request.js';
import { answerEveryLine, answerJsonLine } from './typeof.js';

export function answerOnnxLine(line: string): NodeAnswer {
  return answerJsonLine(line, '{"op_type": ..., "opset": ..., "inputs": [...]}', typeNodeRequest);
}

export function typeofOnnxCommand(input: AsyncIterable<Buffer | string> = process.stdin): Promise<number> {
  return answerEveryLine(answerOnnxLine, input);
}
