// `shapelog typeof`: JSON lines on stdin, one operator call each, one JSON answer per
// line, whatever the line holds (blank, not JSON, the wrong shape, too long: an
// `{"error": ...}` answer). Exit 1 when any line's answer is an error.
import { LimitError, type Limits } from '../solver/engine/limits.js';
import { UserError } from '../diagnostics/diagnostic.js';
import { typeofCall, type TypeofAnswer } from '../typing/typeof.js';
import { typeofRequest } from '../typing/typeof-request.js';
import { boundedLines } from './line-reader.js';
import { EXIT_OK, EXIT_USER_ERROR } from './report.js';

/** A request line may be this long. */
export const MAX_LINE_BYTES = 1024 * 1024;

export function answerLine(line: string, relations: 'rules' | 'imperative', limits: Partial<Limits> = {}): TypeofAnswer {
  return answerJsonLine(line, '{"op": "...", "attrs": {...}, "args": ["Tensor[...]", "_"]}', (parsed) =>
    typeofCall(typeofRequest(parsed), relations === 'rules' ? 'rules' : 'relay', limits),
  );
}

/**
 * One request line's answer: `answer` of the parsed JSON, or `{"error"}` for a blank
 * line, a line that is not JSON, or a UserError or LimitError (`expected` says what a
 * request looks like).
 */
export function answerJsonLine<A extends object>(line: string, expected: string, answer: (parsed: unknown) => A): A | { error: string } {
  if (line.trim() === '') return { error: `empty line; expected ${expected}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (e) {
    return { error: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    return answer(parsed);
  } catch (e) {
    if (e instanceof UserError || e instanceof LimitError) return { error: e.message };
    throw e;
  }
}

export function typeofCommand(relations: 'rules' | 'imperative', input: AsyncIterable<Buffer | string> = process.stdin): Promise<number> {
  return answerEveryLine((line) => answerLine(line, relations), input);
}

/** One JSON answer per input line, errors prefixed with the line number; exit 1 when any answer is an error. */
export async function answerEveryLine(answerOf: (line: string) => object, input: AsyncIterable<Buffer | string>): Promise<number> {
  let n = 0;
  let failed = false;
  for await (const line of boundedLines(input, MAX_LINE_BYTES)) {
    n++;
    let answer =
      'text' in line
        ? answerOf(line.text)
        : {
            error: line.endless
              ? `line too long and no line break within ${64 * MAX_LINE_BYTES} bytes: the input is not JSON lines; stopped reading`
              : `line too long (more than ${MAX_LINE_BYTES} bytes)`,
          };
    if ('error' in answer) {
      failed = true;
      answer = { error: `line ${n}: ${String(answer.error)}` };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
  return failed ? EXIT_USER_ERROR : EXIT_OK;
}
