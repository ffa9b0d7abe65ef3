package dev.breakwater.common.config;

/** What crash recovery does when the transaction log is damaged somewhere a crash cannot explain (docs/formats.md §5). */
public enum LogRecoveryMode {
    /** Refuse to open, naming the damaged segment and byte offset; change no file. */
    STRICT,
    /**
     * Replay every record before the damage, move the damaged segment and all later ones aside
     * (never deleted), log at ERROR what was dropped, and open with the rest lost.
     */
    SALVAGE
}
