/**
 * Allocation sampling for a bench server, loaded before it:
 * `ALLOCATION_PROFILE=<file> node --import ./dist/bench/allocation-sampler.js <server script> …`.
 *
 * The first SIGUSR2 starts V8's sampling heap profiler with the objects the collector has freed
 * kept in the samples (so the profile counts every allocation, not what is still alive); the
 * second stops it and writes the profile (JSON) to ALLOCATION_PROFILE. Send the first after a
 * warm-up and the second after a known number of requests, then divide with
 * `node dist/bench/allocation-report.js <file> <requests>`. Bytes allocated per request move by a
 * few per cent between runs where CPU time moves by tens (docs/performance.md, "How to measure a
 * change").
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const target = process.env.ALLOCATION_PROFILE;
if (!target) throw new Error('allocation-sampler: set ALLOCATION_PROFILE to the file the profile goes to');

/** Bytes between samples: small enough that 10 000 requests of a few kB each are sampled densely. */
const SAMPLING_INTERVAL = 512;

const session = new Session();
session.connect();
let sampling = false;

process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.enable', () =>
      session.post('HeapProfiler.startSampling', {
        samplingInterval: SAMPLING_INTERVAL,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    );
    return;
  }
  sampling = false;
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) process.stderr.write(`allocation-sampler: ${error.message}\n`);
    else writeFileSync(target, JSON.stringify(result.profile));
  });
});
