package dev.breakwater.common.config;

/** What crash recovery does when the log or checkpoint is damaged in a way a crash cannot explain (docs/formats.md §5, §6). */
public enum LogRecoveryMode {
    /** Refuse to open, naming the damaged segment and byte offset; change no file. */
    STRICT,
    /**
     * Replay every record before the damage, flush, move every old segment into
     * {@code log/salvaged-<millis>/} (never deleted), log at ERROR what was dropped, and open with the
     * log continuing at a fresh LSN; every record from the damage on is lost.
     */
    SALVAGE
}
