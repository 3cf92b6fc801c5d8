// `shapelog typeof --onnx`: JSON lines on stdin, each one ONNX node call in the record
// format of ONNX's node conformance cases (typing/onnx/node-request.ts); one answer per
// line, `{"outputs": [...]}` or `{"error": "..."}`, whatever the line holds. Exit 1
// when any line's answer is an error.
import { LimitError } from '../solver/engine/limits.js';
import { UserError } from '../diagnostics/diagnostic.js';
import { typeNodeRequest, type NodeAnswer } from '../typing/onnx/node-request.js';
import { boundedLines } from './line-reader.js';
import { EXIT_OK, EXIT_USER_ERROR } from './report.js';
import { MAX_LINE_BYTES } from './typeof.js';

export function answerOnnxLine(line: string): NodeAnswer {
  if (line.trim() === '') return { error: 'empty line; expected {"op_type": ..., "opset": ..., "inputs": [...]}' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (e) {
    return { error: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    return typeNodeRequest(parsed);
  } catch (e) {
    if (e instanceof UserError || e instanceof LimitError) return { error: e.message };
    throw e;
  }
}

export async function typeofOnnxCommand(input: AsyncIterable<Buffer | string> = process.stdin): Promise<number> {
  let n = 0;
  let failed = false;
  for await (const line of boundedLines(input, MAX_LINE_BYTES)) {
    n++;
    let answer = 'text' in line ? answerOnnxLine(line.text) : { error: `line too long (more than ${MAX_LINE_BYTES} bytes)` };
    if ('error' in answer) {
      failed = true;
      answer = { error: `line ${n}: ${answer.error}` };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  }
  return failed ? EXIT_USER_ERROR : EXIT_OK;
}
