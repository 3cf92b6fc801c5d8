// `shapelog check --against OLD.rules` / `--against-rev GITREV`: what an edit of the
// rules changed. A planted edit of transform.rules changes transpose's answers and
// nothing of add's (test/per-axis.test.ts plants conv.rules edits in process); an identical old file and the revision the files come from change nothing;
// bad old files and revisions are refused with located errors or usage errors.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { RULES_DIR } from '../relations/library.js';
import { typeofCall, type TypeofRequest } from '../typing/typeof.js';
import { runShapelog, scratchFolder, SHAPELOG_BIN } from './helpers.js';

const CONV = readFileSync(join(RULES_DIR, 'conv.rules'), 'utf8');

interface Report {
  changed: number;
  ops: {
    op: string;
    cases: number;
    changed: number;
    changes: { line: string; shrunk: boolean; now: { type?: string; error?: string }; before: { type?: string; error?: string } }[];
  }[];
}

const TRANSPOSE = 'Out = tensor(reverse(S), D) :- Transpose(tensor(S, D), Out; axes: none), is_list(S).';
const TRANSFORM = readFileSync(join(RULES_DIR, 'transform.rules'), 'utf8');

test.serial('an edit that changes one operator: every changed case reported, shrunk, with both answers; exit 1', (t) => {
  // the old version: transpose without axes keeps the order instead of reversing it
  t.is(TRANSFORM.split(TRANSPOSE).length, 2, 'the planted text occurs once in transform.rules');
  const old = scratchFolder('shapelog-against-').file('transform.rules', TRANSFORM.replace(TRANSPOSE, TRANSPOSE.replace('reverse(S)', 'S')));
  const r = runShapelog(['check', '--ops', 'transpose,add', '--against', old, '--seed', '1', '--json'], { timeoutMs: 240_000 });
  t.is(r.code, 1, r.err);
  const report = JSON.parse(r.out) as Report;
  const [transpose, add] = report.ops;
  t.is(add!.changed, 0);
  t.true(transpose!.changed > 0);
  t.is(report.changed, transpose!.changed);
  for (const c of transpose!.changes) {
    const req = JSON.parse(c.line) as TypeofRequest;
    t.is(req.op, 'transpose');
    // "now" is what the current rules answer to the reported line; "before" differs from it
    const now = typeofCall(req, 'rules');
    t.deepEqual('type' in now ? now.type : 'error', c.now.type ?? 'error');
    t.notDeepEqual(c.now, c.before);
    // the edit only shows without axes
    t.is(req.attrs?.['axes'] ?? null, null, c.line);
  }
  // the text report: a ready-to-paste typeof line with both answers; --expect-changes exits 0
  const text = runShapelog(['check', '--ops', 'transpose', '--against', old, '--seed', '1']);
  t.is(text.code, 1, text.err);
  t.regex(
    text.out,
    /transpose: the answer changed \(now type \/ before type, sweep case\); minimal case:\n {2}echo '\{"op":"transpose".*' \| shapelog typeof\n {4}now: {4}\{"type":.*\n {4}before: \{"type":/,
  );
  t.regex(text.out, /against .*transform\.rules: 1 operators, \d+ cases \(seed 1\): \d+ same, [1-9]\d* changed/);
  t.is(runShapelog(['check', '--ops', 'transpose', '--against', old, '--seed', '1', '--expect-changes']).code, 0);
});

test.serial('an identical old file, and the revision the files come from, change nothing: exit 0', (t) => {
  const same = scratchFolder('shapelog-against-').file('conv.rules', CONV);
  const r = runShapelog(['check', '--ops', 'nn.conv2d', '--against', same, '--seed', '2', '--depth', '4'], { timeoutMs: 240_000 });
  t.is(r.code, 0, r.err);
  t.regex(r.out, /: 1 operators, \d+ cases \(seed 2\): \d+ same, 0 changed/);
  t.notRegex(r.out, /the answer changed/);
  const head = runShapelog(['check', '--ops', 'add,sum', '--against-rev', 'HEAD', '--seed', '2', '--json'], { timeoutMs: 240_000 });
  // the working tree's rule files are those of HEAD (no test edits them)
  const committed = spawnSync('git', ['diff', '--quiet', 'HEAD', '--', RULES_DIR]).status === 0;
  if (committed) {
    t.is(head.code, 0, head.err);
    t.is((JSON.parse(head.out) as Report).changed, 0);
  } else t.true(head.code === 0 || head.code === 1, head.err);
});

test.serial('bad old files and revisions: located errors (exit 1) and usage errors (exit 2), no stack trace', (t) => {
  const dir = scratchFolder('shapelog-against-');
  const broken = dir.file('lib.rules', 'relation Foo(a, b).\nFoo(X, Y) :- bar(X.\n');
  const r = runShapelog(['check', '--ops', 'add', '--against', broken]);
  t.is(r.code, 1);
  t.regex(r.err, /lib\.rules:2:19: error: /);
  t.notRegex(r.err, /\n\s+at /);
  const stranger = dir.file('mine.rules', CONV);
  const u = runShapelog(['check', '--ops', 'add', '--against', stranger]);
  t.is(u.code, 2);
  t.regex(u.err, /no rule file of the library is named mine\.rules/);
  const missing = runShapelog(['check', '--ops', 'add', '--against', join(dir.dir, 'conv.rules')]);
  t.is(missing.code, 1);
  t.regex(missing.err, /cannot read .*conv\.rules/);
  const rev = runShapelog(['check', '--ops', 'add', '--against-rev', 'no-such-revision']);
  t.is(rev.code, 2);
  t.regex(rev.err, /--against-rev no-such-revision: not a revision/);
  // outside a git checkout (git pointed at a folder that is none)
  const outside = spawnSync(process.execPath, [SHAPELOG_BIN, 'check', '--ops', 'add', '--against-rev', 'HEAD'], {
    encoding: 'utf8',
    env: { ...process.env, GIT_DIR: dir.dir },
  });
  t.is(outside.status, 2);
  t.regex(outside.stderr, /not in a git checkout/);
  t.is(runShapelog(['check', '--ops', 'add', '--against', broken, '--against-rev', 'HEAD']).code, 2);
});
