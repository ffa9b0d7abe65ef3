package dev.breakwater.tpcc;

import java.time.Duration;

/**
 * What the driver runs: terminals over warehouses, the measured duration after a warm-up, the mix
 * (optionally switched to {@code mixAfter} at {@code mixSwitchAt} from the start of the run, warm-up
 * included), keying/think times on or off, and the seed of the terminals' random generators.
 * {@code transactions > 0} also ends the measured phase once that many transactions have committed in
 * it (checked once a second), so that runs of different speed do the same work on the same data
 * growth; {@code duration} is then the limit. {@code warmupTransactions > 0} likewise ends the warm-up
 * once that many transactions have committed since the start (checked once a second), {@code warmup}
 * then being its limit: paper 000 excludes the first half of each run, and a warm-up measured in
 * transactions excludes the same work from runs of different speed.
 */
public record RunOptions(int warehouses, int terminals, Duration duration, Duration warmup, Mix mix,
                         Duration mixSwitchAt, Mix mixAfter, boolean thinkTimes, long seed, long transactions,
                         long warmupTransactions) {

    public RunOptions {
        if (warehouses < 1 || terminals < 1) {
            throw new IllegalArgumentException("need at least one warehouse and one terminal");
        }
        if (mixSwitchAt != null && mixAfter == null) {
            throw new IllegalArgumentException("a mix switch needs the mix to switch to");
        }
        if (transactions < 0) {
            throw new IllegalArgumentException("--transactions must be positive (0: no limit), got " + transactions);
        }
        if (warmupTransactions < 0) {
            throw new IllegalArgumentException("--warmup-transactions must be positive (0: no limit), got " + warmupTransactions);
        }
    }
}
