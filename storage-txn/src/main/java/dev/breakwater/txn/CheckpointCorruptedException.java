package dev.breakwater.txn;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The checkpoint file is damaged ({@link CheckpointFile}). Its log start LSN bounds where replay
 * begins, so open refuses rather than guess: a start too high would silently skip committed records.
 */
public final class CheckpointCorruptedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;

    CheckpointCorruptedException(Path file, String detail) {
        super("checkpoint " + file + " is damaged: " + detail + ". Nothing was changed. To recover, move the file "
                + "aside and reopen: replay then starts at the trees' own durable LSNs (and open refuses if log "
                + "segments it needs are gone), or open with log-recovery: SALVAGE, which replays every log segment "
                + "present");
        this.file = file;
    }

    /** The damaged checkpoint file. */
    public Path file() {
        return file;
    }
}
