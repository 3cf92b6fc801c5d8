// Where a piece of user text came from: a file (or a label such as `<goal>`) and a
// start/end position. Every layer's diagnostics point at spans, so this sits below all
// of them.

export interface Span {
  /** The file the text came from (a path, or a label such as `<goal>`). */
  readonly file: string;
  readonly start: Position;
  readonly end: Position;
}

export interface Position {
  readonly offset: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** The position of `offset` in `text`, counted as Peggy counts (1-based; only `\n` starts a line). */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { offset, line, column: offset - lineStart + 1 };
}
