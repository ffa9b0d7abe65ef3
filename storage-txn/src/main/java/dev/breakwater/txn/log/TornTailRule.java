package dev.breakwater.txn.log;

import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The one rule that separates a torn tail from corruption, shared by replay ({@link LogReader}) and
 * by reopening the log ({@link LogManager}), so both always agree.
 *
 * <p>A crash can only cut the log short: the writer appends batches in LSN order, fsyncs each before
 * it reports any record in it durable, and fsyncs a segment completely before it creates the next.
 * What a crash leaves after the last intact record of the <em>last</em> segment is therefore some
 * prefix of unsynced bytes: a truncated record, a partial header, zeros where the file system
 * extended the file but never wrote the data, or the leading part of a group-commit batch (several
 * records, the first whole ones intact, the rest cut). None of these contains an intact record after
 * a bad one. So a bad record is a torn tail exactly when it is in the last segment and no intact
 * record (see {@link IntactRecordSearch}) follows it; anything else is corruption.
 *
 * <p>Thread safety: stateless; safe.
 */
final class TornTailRule {

    private TornTailRule() {
    }

    /**
     * Returns if the bad record at {@code badOffset} of the last segment {@code file} is a torn tail;
     * throws if an intact record follows it.
     *
     * @param stopDetail what the scanner found wrong with the bad record, for the message
     * @throws LogCorruptedException naming the segment, the bad record's offset and the intact one's
     */
    static void requireTornTail(StorageFile file, Path path, long firstLsn, long fileSize, long badOffset,
                                String stopDetail, int maxRecordSize) throws IOException {
        long intact = new IntactRecordSearch(file, firstLsn, fileSize, maxRecordSize).find(badOffset + 1);
        if (intact >= 0) {
            throw new LogCorruptedException(path, badOffset, firstLsn + badOffset, stopDetail
                    + "; yet an intact record follows at byte offset " + intact + " (LSN " + (firstLsn + intact)
                    + "), so this is damage in the middle of the log, not a torn tail left by a crash");
        }
    }
}
