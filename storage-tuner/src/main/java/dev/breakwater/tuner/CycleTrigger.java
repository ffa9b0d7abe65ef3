package dev.breakwater.tuner;

/** What started a tuning cycle (paper 000 §5.4). */
public enum CycleTrigger {
    /** The log grew by the maximum log length since the last cycle. */
    LOG,
    /** The timer period passed without a log-triggered cycle (read-heavy workloads). */
    TIMER,
    /** A caller asked for a cycle (tests, benchmarks). */
    MANUAL
}
