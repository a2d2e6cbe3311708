// `--only ID…` of the mutant commands (selftest, fuzz --mutants), apart from flags.ts so that the commands that do
// not score mutants (run, list, validate …) never load the mutant list.
import { CliError, EXIT } from './exit.js';
import { MUTANTS, type Mutant } from '../ctk/mutants/mutants.js';

/** `--only ID…` of the mutant commands: the selftest mutants named, every one of them known (else exit 2). */
export function selectMutants(only: string[] | undefined): readonly Mutant[] {
  if (!only || only.length === 0) return MUTANTS;
  const known = new Set(MUTANTS.map((m) => m.id));
  const unknown = only.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new CliError(EXIT.badInput, `--only: unknown mutant id ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  return MUTANTS.filter((m) => only.includes(m.id));
}
