package dev.breakwater.lsm.sstable;

import java.util.concurrent.atomic.LongAdder;

/**
 * Bloom filter effectiveness of one {@link SSTableReader}: probes, probes that excluded the key, and
 * false positives (the filter said maybe and the leaf did not hold the key). Striped counters, so
 * concurrent lookups do not contend.
 *
 * <p>Thread safety: safe; each counter is exact at some instant of a read.
 */
public final class SSTableReadStatistics {

    final LongAdder bloomProbes = new LongAdder();
    final LongAdder bloomNegatives = new LongAdder();
    final LongAdder bloomFalsePositives = new LongAdder();

    /** Filter probes, by {@link SSTableReader#mayContain} and by lookups. */
    public long bloomProbes() {
        return bloomProbes.sum();
    }

    /** Probes that answered "definitely absent". */
    public long bloomNegatives() {
        return bloomNegatives.sum();
    }

    /** Lookups the filter let through that found no entry for the key. */
    public long bloomFalsePositives() {
        return bloomFalsePositives.sum();
    }
}
