// The project's contested readings: points where READINGS.md finds the text read two ways by real hosts, neither
// of which the text rules out. They are this kit's declared choices (not §13.1 postures): a host states in
// describe() which reading it takes, and a vector whose expectations depend on it states one case per value
// (`expect.by_reading`) or runs only under one (`readings`). A host that declares none is judged under the default.
import type { PostureSpec } from './postures.js';

/** A contested reading: the same shape as a posture (values, default, clause, one-line reading, disclosure). */
export type ReadingSpec = PostureSpec;

export const READINGS = {
  errored_model_call: {
    values: ['post_model_call', 'none'],
    default: 'post_model_call',
    clause: '§3.1, §12.1',
    reading:
      'a model call that errored without a response gets its one post_model_call, an empty error response never incorporated (post_model_call, §3.1 item 4), or no post_model_call at all (none, §12.1 "not the vehicle for reporting the provider\'s error")',
    disclosure: {
      none: 'a model call that errored without a response gets no `post_model_call` (§12.1: it is "not the vehicle for reporting the provider\'s error"); the session still ends in `error` and nothing of the call proceeds; the passing vectors attest the `none` outcomes.',
    },
  },
} as const satisfies Record<string, ReadingSpec>;

export type ReadingName = keyof typeof READINGS;
export const READING_NAMES = Object.keys(READINGS) as ReadingName[];

/** A declaration: one value per registered reading (defaults filled in). */
export type Readings = { [K in ReadingName]: (typeof READINGS)[K]['values'][number] };

/** The values of reading errored_model_call (the reference loop's `erroredModelCall` option). */
export type ErroredModelCallReading = Readings['errored_model_call'];

export function isReadingName(name: string): name is ReadingName {
  return Object.prototype.hasOwnProperty.call(READINGS, name);
}

/** The registry's defaults: what a host that declares no reading is judged under. */
export function defaultReadings(): Readings {
  const out: Record<string, string> = {};
  for (const name of READING_NAMES) out[name] = READINGS[name].default;
  return out as Readings;
}
