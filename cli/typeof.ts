// `shapelog typeof`: JSON lines on stdin, one operator call each, one JSON answer per line.
import { createInterface } from 'node:readline';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';
import { EXIT_OK } from './report.js';

export async function typeofCommand(relations: 'rules' | 'imperative'): Promise<number> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    let req: TypeofRequest;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { op?: unknown }).op !== 'string' || !Array.isArray((parsed as { args?: unknown }).args))
        throw new Error('expected {"op": "...", "attrs": {...}, "args": ["Tensor[...]", "_"]}');
      req = parsed as TypeofRequest;
    } catch (e) {
      process.stdout.write(JSON.stringify({ error: `line ${n}: ${e instanceof Error ? e.message : String(e)}` }) + '\n');
      continue;
    }
    process.stdout.write(JSON.stringify(typeofCall(req, relations === 'rules' ? 'rules' : 'relay')) + '\n');
  }
  return EXIT_OK;
}
