// Median-of-N sampling of many jobs under one time budget.
//
// Phase 1 runs every job once: this checks every answer count before any timed repetition,
// warms up the JIT, and tells how long each job takes. Phase 2 hands out the remaining budget
// round-robin, one run at a time, until every job has `reps` samples or nothing more fits,
// and takes the samples in rounds (each job's k-th sample, then each job's k+1-th), so that
// jobs meant to be compared (shapelog's and SWI's) alternate instead of running in blocks.
// For a job with `warmUp`, the first run is discarded unless it ends up the only one.

export interface Sample {
  readonly ms: number;
  /** What taking the sample cost, when more than `ms` (e.g. a process with warm-up runs). */
  readonly costMs?: number;
  /** A job whose first run failed (and said so) is not run again. */
  readonly failed?: boolean;
}

export interface Job<S extends Sample> {
  readonly label: string;
  /** Discard the first run (in-process engine runs); fresh-process runs keep it. */
  readonly warmUp: boolean;
  readonly run: () => S;
}

export interface SamplingOptions {
  readonly quick: boolean;
  readonly reps: number;
  readonly budgetMs: number;
  readonly progress: (line: string) => void;
}

/** Returns each job's samples, in job order. Exceptions from `run` propagate. */
export function sampleAll<S extends Sample>(jobs: readonly Job<S>[], o: SamplingOptions): S[][] {
  const start = performance.now();
  const report = (job: Job<S>, s: S, what: string): S => {
    if (s.failed) return s;
    o.progress(`${job.label}: ${what} … ${s.ms < 100 ? s.ms.toFixed(1) : s.ms.toFixed(0)} ms`);
    return s;
  };
  const firsts = jobs.map((j) => report(j, j.run(), o.quick ? 'run 1/1' : j.warmUp ? 'check + warm-up' : 'check + run 1'));
  if (o.quick) return firsts.map((s) => [s]);

  // Plan: how many more runs each job gets. Jobs under 100 ms are the noisiest relative to
  // their length, and cheap: they get three times as many runs.
  let remaining = o.budgetMs - (performance.now() - start);
  const have = jobs.map((j) => (j.warmUp ? 0 : 1));
  const wanted = firsts.map((f) => (f.ms < 100 ? 3 * o.reps : o.reps));
  for (let progress = true; progress; ) {
    progress = false;
    jobs.forEach((_, i) => {
      const cost = firsts[i]!.costMs ?? firsts[i]!.ms;
      if (!firsts[i]!.failed && have[i]! < wanted[i]! && cost <= remaining) {
        have[i]!++;
        remaining -= cost;
        progress = true;
      }
    });
  }

  const samples: S[][] = jobs.map((job, i) => (have[i]! === 0 || firsts[i]!.failed ? [] : job.warmUp ? [] : [firsts[i]!]));
  const rounds = Math.max(0, ...have);
  for (let k = 1; k <= rounds; k++) {
    jobs.forEach((job, i) => {
      const n = have[i]!;
      if (firsts[i]!.failed || samples[i]!.length >= n) return;
      samples[i]!.push(report(job, job.run(), `run ${samples[i]!.length + 1}/${n}`));
    });
  }
  // failed, or a warm-up that is the only run there was time for: the first run stands
  return samples.map((xs, i) => (xs.length === 0 ? [firsts[i]!] : xs));
}
