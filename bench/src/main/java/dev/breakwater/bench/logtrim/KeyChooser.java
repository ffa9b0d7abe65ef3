package dev.breakwater.bench.logtrim;

import java.util.SplittableRandom;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * How {@link LogTrimBench}'s clients pick the key of each operation: {@code uniform} over
 * {@code 0..records-1} (db_bench's random writes, paper 002's Fig 5), or {@code zipfian}, YCSB's
 * default request distribution (a scrambled Zipfian, constant 0.99: a few hot keys, spread over the
 * key space by a hash, take most operations).
 *
 * <p>One instance per client thread: the uniform chooser uses the caller's random source, the
 * Zipfian one YCSB's generator (its own thread-local randomness).
 */
interface KeyChooser {

    /** The next key in {@code 0..records-1}. */
    long next(SplittableRandom r);

    /** A chooser for {@code distribution} ({@code uniform} or {@code zipfian}) over {@code records} keys. */
    static KeyChooser of(String distribution, long records) {
        return switch (distribution) {
            case "uniform" -> r -> r.nextLong(records);
            case "zipfian" -> {
                ScrambledZipfianGenerator zipf = new ScrambledZipfianGenerator(0, records - 1);
                yield r -> zipf.nextValue();
            }
            default -> throw new IllegalArgumentException("unknown distribution " + distribution);
        };
    }
}
