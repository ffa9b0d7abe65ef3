package dev.breakwater.tuner.advisor;

import java.util.Arrays;

/**
 * An LSM-tree design φ = (m_buff, m_filter, T, K_1..K_L) of paper 003, in Breakwater's knobs.
 *
 * <p>Immutable; thread-safe.
 *
 * @param writeMemoryBytes m_buff, the write memory (a flush writes about this much to level 1)
 * @param bloomBitsPerKey  h, Bloom filter bits per key at every level; m_filter = h·N bits
 * @param sizeRatio        T &gt;= 2
 * @param runsPerLevel     K_1, K_2, …: the most sorted runs level i holds, each in [1, T − 1]; the last
 *                         value repeats for deeper levels, so {@code {1}} is leveling and
 *                         {@code {T − 1}} tiering
 */
public record Design(long writeMemoryBytes, double bloomBitsPerKey, int sizeRatio, int[] runsPerLevel) {

    public Design {
        if (writeMemoryBytes < 1) {
            throw new IllegalArgumentException("write memory must be positive, got " + writeMemoryBytes);
        }
        if (!(bloomBitsPerKey >= 0 && bloomBitsPerKey <= 64)) {
            throw new IllegalArgumentException("Bloom bits per key must be in [0, 64], got " + bloomBitsPerKey);
        }
        if (sizeRatio < 2) {
            throw new IllegalArgumentException("size ratio T must be >= 2, got " + sizeRatio);
        }
        if (runsPerLevel.length == 0) {
            throw new IllegalArgumentException("runs per level needs at least K_1");
        }
        runsPerLevel = runsPerLevel.clone();
        for (int i = 0; i < runsPerLevel.length; i++) {
            if (runsPerLevel[i] < 1 || runsPerLevel[i] > sizeRatio - 1) {
                throw new IllegalArgumentException("K_" + (i + 1) + " must be in [1, T-1] = [1, " + (sizeRatio - 1) + "], got " + runsPerLevel[i]);
            }
        }
    }

    /** A design with the same number of runs K at every level. */
    public static Design uniform(long writeMemoryBytes, double bloomBitsPerKey, int sizeRatio, int runs) {
        return new Design(writeMemoryBytes, bloomBitsPerKey, sizeRatio, new int[] {runs});
    }

    /** K_i for level {@code i} (1-based). */
    public int runs(int level) {
        if (level < 1) {
            throw new IllegalArgumentException("levels are numbered from 1, got " + level);
        }
        return runsPerLevel[Math.min(level, runsPerLevel.length) - 1];
    }

    @Override
    public int[] runsPerLevel() {
        return runsPerLevel.clone();
    }

    /** True if every level holds the same number of runs. */
    public boolean uniformRuns() {
        return Arrays.stream(runsPerLevel).allMatch(k -> k == runsPerLevel[0]);
    }

    /** "leveling" (K = 1), "tiering" (K = T − 1), or "runs-per-level K" (uniform K in between). */
    public String policyName() {
        if (!uniformRuns()) {
            return "runs-per-level " + Arrays.toString(runsPerLevel);
        }
        int k = runsPerLevel[0];
        return k == 1 ? "leveling" : k == sizeRatio - 1 ? "tiering" : "runs-per-level " + k;
    }

    /** Bytes of Bloom filter for {@code entries} keys. */
    public double filterBytes(long entries) {
        return bloomBitsPerKey * entries / 8.0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Design d && d.writeMemoryBytes == writeMemoryBytes && d.bloomBitsPerKey == bloomBitsPerKey
                && d.sizeRatio == sizeRatio && Arrays.equals(d.runsPerLevel, runsPerLevel);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(writeMemoryBytes) * 31 + Double.hashCode(bloomBitsPerKey) * 17 + sizeRatio * 7 + Arrays.hashCode(runsPerLevel);
    }

    @Override
    public String toString() {
        return String.format("T=%d %s, %.1f bits/key, write memory %d bytes", sizeRatio, policyName(), bloomBitsPerKey, writeMemoryBytes);
    }
}
