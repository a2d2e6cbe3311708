// `coverage` command: stub, replaced by the issue that owns it.
import type { Command } from 'commander';

export function register(_program: Command): void {}
