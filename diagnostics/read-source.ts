// Reading a user's source file, bounded: a directory, or anything larger than the
// limit, is refused with a plain reason; a device or FIFO (`/dev/zero`, `<(cmd)`) is
// read in chunks only up to the limit, never buffered without end.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Biggest source file accepted. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

export type SourceRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly why: string };

/** Node's error codes in words a user reads. */
const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
};

/** Why a file operation failed, in words a user reads (`no such file`, `permission denied`). */
export function failureReason(e: unknown): string {
  const code = e instanceof Error && 'code' in e ? String(e.code) : '';
  return REASONS[code] ?? (code !== '' ? `cannot be read (${code})` : e instanceof Error ? e.message : String(e));
}

/** The text of `path` (UTF-8), or why it cannot be read. */
export function readSource(path: string, maxBytes = MAX_SOURCE_BYTES): SourceRead {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return { ok: false, why: failureReason(e) };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { ok: false, why: 'is a directory' };
    const tooLarge = { ok: false, why: `is larger than ${maxBytes / 1024 / 1024} MB` } as const;
    if (st.isFile() && st.size > maxBytes) return tooLarge;
    // read in chunks up to the limit: a device or FIFO has no size to check first
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(1 << 20, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) return tooLarge;
    }
    return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
  } catch (e) {
    return { ok: false, why: failureReason(e) };
  } finally {
    closeSync(fd);
  }
}
