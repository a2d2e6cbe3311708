// Splits a byte stream into lines with a hard per-line cap: a line that grows past the cap is
// reported once and its bytes are dropped as they arrive, so memory stays bounded whatever the peer sends.

export interface LineSplitterOptions {
  maxLineBytes: number;
  onLine: (line: Buffer) => void;
  /** Called once per over-long line, as soon as it passes the cap (bytesSeen > maxLineBytes). */
  onOverflow: (bytesSeen: number) => void;
}

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private overflowing = false;

  constructor(private readonly options: LineSplitterOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      this.take(chunk.subarray(start, end));
      if (nl < 0) return;
      this.endLine();
      start = nl + 1;
    }
  }

  /** End of stream: a final unterminated line still counts as a line. */
  end(): void {
    if (this.size > 0 || this.parts.length > 0) this.endLine();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.overflowing) return;
    this.size += piece.length;
    if (this.size > this.options.maxLineBytes) {
      this.overflowing = true;
      this.parts = [];
      this.options.onOverflow(this.size);
      return;
    }
    this.parts.push(piece);
  }

  private endLine(): void {
    if (!this.overflowing) {
      let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
      if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1); // tolerate CRLF
      this.options.onLine(line);
    }
    this.parts = [];
    this.size = 0;
    this.overflowing = false;
  }
}
