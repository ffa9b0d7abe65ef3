package dev.breakwater.lsm.memory;

/**
 * Settings of {@link MemoryMergePicker}.
 *
 * @param sizeRatio T, the size ratio between adjacent memory levels (paper 000 §4.1: 10)
 * @param baseBytes the size of the active component M0 (DESIGN.md §4: 32 MB by default); memory
 *                  level {@code i} (1-based) targets {@code baseBytes * T^i}
 */
public record MemoryMergeSettings(double sizeRatio, long baseBytes) {

    /** The paper's size ratio. */
    public static final double DEFAULT_SIZE_RATIO = 10;

    public MemoryMergeSettings {
        if (!(sizeRatio > 1)) {
            throw new IllegalArgumentException("memory level size ratio must be > 1, got " + sizeRatio);
        }
        if (baseBytes <= 0) {
            throw new IllegalArgumentException("M0 size must be > 0, got " + baseBytes);
        }
    }

    /** Size ratio 10 over an M0 of {@code m0Bytes}. */
    public static MemoryMergeSettings withBase(long m0Bytes) {
        return new MemoryMergeSettings(DEFAULT_SIZE_RATIO, m0Bytes);
    }

    /** Target size of memory level {@code level} (1-based, not the last level): {@code M0 * T^level}. */
    public double target(int level) {
        return baseBytes * Math.pow(sizeRatio, level);
    }
}
