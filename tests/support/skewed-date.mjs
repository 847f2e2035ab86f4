// Preloaded with `node --import ./tests/support/skewed-date.mjs …`: this process's clock runs
// CLOCK_SKEW_MS (default 40 000) ahead. `Date.now()` and `new Date()` are shifted; dates built
// from a value are not, and timers keep their real pace.
const skew = Number(process.env.CLOCK_SKEW_MS ?? 40_000);
const RealDate = Date;
class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + skew);
    else super(...args);
  }
  static now() {
    return RealDate.now() + skew;
  }
}
globalThis.Date = SkewedDate;
