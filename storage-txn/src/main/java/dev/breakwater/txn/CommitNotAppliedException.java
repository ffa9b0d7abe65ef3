package dev.breakwater.txn;

/**
 * A commit's log record is written (durable under {@code SYNC}), but applying it to the trees
 * failed part way, so this engine could no longer show one consistent state. The transaction <b>is
 * committed</b>: reopening the engine replays it into every tree. Until then the engine refuses reads
 * and writes ({@link StorageFailedException}), so that no caller sees a secondary index that
 * disagrees with its primary. {@link #lsn()} is the commit's log position.
 */
public class CommitNotAppliedException extends StorageFailedException {

    private static final long serialVersionUID = 1L;

    private final long lsn;

    public CommitNotAppliedException(String message, long lsn, Throwable cause) {
        super(message, cause);
        this.lsn = lsn;
    }

    /** The log position of the committed transaction. */
    public long lsn() {
        return lsn;
    }
}
