// Programs and their answers as files (test/programs/README.md): each NAME.expected is a
// transcript of `shapelog` commands run in test/programs/ and what each prints, checked
// by hand when it was written. Every command is run through the built command line and
// must print its block exactly; a `query` that names no strategy is run with each
// strategy that applies (naive, seminaive and mutable; demand too with a goal), so the
// strategies are checked against the hand-written answer, not only against each other.
import test from 'ava';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const folder = join(root, 'test', 'programs');
const bin = join(root, 'bin', 'shapelog.js');

interface Command {
  /** The command line as written, for messages. */
  readonly line: string;
  readonly args: readonly string[];
  /** What it must print on stdout. */
  readonly expected: string;
  /** Its line number in the transcript. */
  readonly at: number;
}

/** A command line's words: whitespace separates them; single or double quotes keep one word. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** The commands of a transcript: a line `$ shapelog ARGS` starts one, the lines up to the next such line are its output. */
function transcript(text: string, file: string): Command[] {
  const commands: { line: string; args: string[]; out: string[]; at: number }[] = [];
  text.split('\n').forEach((l, i) => {
    if (l.startsWith('$ ')) {
      const [program, ...args] = words(l.slice(2));
      if (program !== 'shapelog') throw new Error(`${file}:${i + 1}: a command must start with \`$ shapelog\``);
      commands.push({ line: l.slice(2), args, out: [], at: i + 1 });
    } else if (commands.length === 0) {
      if (l.trim() !== '') throw new Error(`${file}:${i + 1}: output before the first \`$ shapelog\` line`);
    } else commands.at(-1)!.out.push(l);
  });
  return commands.map((c) => {
    while (c.out.length > 0 && c.out.at(-1) === '') c.out.pop();
    return { line: c.line, args: c.args, expected: c.out.map((l) => `${l}\n`).join(''), at: c.at };
  });
}

/** The command as written, and for a `query` without --strategy the same with each strategy that applies. */
function variants(args: readonly string[]): { label: string; args: readonly string[] }[] {
  const asWritten = { label: 'as written', args };
  if (args[0] !== 'query' || args.some((a) => a === '--strategy' || a === '-s' || a.startsWith('--strategy='))) return [asWritten];
  const goal = args.some((a) => a === '--goal' || a === '-g' || a.startsWith('--goal='));
  const strategies = ['naive', 'seminaive', 'mutable', ...(goal ? ['demand'] : [])];
  return [asWritten, ...strategies.map((s) => ({ label: `--strategy ${s}`, args: [...args, '--strategy', s] }))];
}

test('the transcript reader: commands, quoted words, output up to the next command', (t) => {
  const text = '$ shapelog query a.rules --goal \'p(X, "y z")\'\nX = 1.\n\n$ shapelog query a.rules\n% p (1 fact)\np(1).\n';
  t.deepEqual(transcript(text, 't.expected'), [
    { line: 'shapelog query a.rules --goal \'p(X, "y z")\'', args: ['query', 'a.rules', '--goal', 'p(X, "y z")'], expected: 'X = 1.\n', at: 1 },
    { line: 'shapelog query a.rules', args: ['query', 'a.rules'], expected: '% p (1 fact)\np(1).\n', at: 4 },
  ]);
  t.throws(() => transcript('p(1).\n$ shapelog query a.rules\n', 't.expected'), { message: /t\.expected:1: output before/ });
  t.throws(() => transcript('$ swipl a.pl\n', 't.expected'), { message: /t\.expected:1: a command must start/ });
});

/** Runs the built command line in test/programs/: exit code and standard output. */
function shapelog(args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: folder });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => done({ code, out, err }));
  });
}

const files = readdirSync(folder)
  .filter((f) => f.endsWith('.expected'))
  .sort();

test('there are transcripts to run', (t) => {
  t.true(files.length >= 4, files.join(', '));
});

for (const file of files) {
  test(`test/programs/${file}`, async (t) => {
    const commands = transcript(readFileSync(join(folder, file), 'utf8'), file);
    t.true(commands.length > 0, `${file} has no command`);
    const runs = commands.flatMap((c) => variants(c.args).map((v) => ({ c, v })));
    const results = await Promise.all(runs.map(({ v }) => shapelog(v.args)));
    runs.forEach(({ c, v }, i) => {
      const run = results[i]!;
      const where = `${file}:${c.at}: $ ${c.line}${v.label === 'as written' ? '' : ` (${v.label})`}`;
      t.is(run.code, 0, `${where}: exit ${run.code}\n${run.err}`);
      t.is(run.out, c.expected, where);
    });
  });
}
