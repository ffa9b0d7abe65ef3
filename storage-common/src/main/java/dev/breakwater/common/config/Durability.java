package dev.breakwater.common.config;

/** When a commit returns relative to the log reaching disk (DESIGN.md §2). */
public enum Durability {
    /** Commit returns after its log record is synced to disk; group commit amortizes the fsync. */
    SYNC,
    /** Commit returns once logged in memory; a flusher syncs within the async sync interval. */
    ASYNC
}
