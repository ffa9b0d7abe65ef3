package dev.breakwater.tools;

import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.txn.log.LogOptions;
import dev.breakwater.txn.log.LogReader;
import dev.breakwater.txn.log.ReplayResult;
import dev.breakwater.txn.log.SegmentFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Checks the records of every log segment, read-only, with the engine's own segment scanner
 * ({@link LogReader#scanSegment}: length, CRC32C over payload and LSN, LSN equal to the record's
 * position), and that each segment but the newest ends exactly where the next begins. Within a
 * segment the check ends at the first bad record (records carry no marker to resynchronize on);
 * unlike recovery it goes on with the next segment, so every damaged segment is reported.
 *
 * <p>A bad record at the end of the newest segment is also what a crash during a write leaves (a
 * torn tail, which recovery truncates); the tool cannot tell the two apart, so it reports it as a
 * problem and says so.
 *
 * <p>Thread safety: not thread-safe; one per command.
 */
final class LogVerifier {

    private final DataDirectory data;
    private final Findings findings;
    private long records;

    LogVerifier(DataDirectory data, Findings findings) {
        this.data = data;
        this.findings = findings;
    }

    long records() {
        return records;
    }

    /** Verifies the segments {@code firstLsns} (ascending) of the log directory. */
    void verify(long[] firstLsns) throws IOException {
        Path dir = data.logDir();
        LogReader reader = new LogReader(data.fs(), dir, LogOptions.DEFAULT_MAX_RECORD_SIZE, new IoStatistics());
        for (int i = 0; i < firstLsns.length; i++) {
            boolean newest = i == firstLsns.length - 1;
            Path path = SegmentFiles.path(dir, firstLsns[i]);
            String name = data.rel(path);
            long size = data.fs().size(path);
            ReplayResult r;
            try {
                r = reader.scanSegment(firstLsns[i], (lsn, payload) -> { });
            } catch (IOException e) {
                findings.problem(name, "could not be read: " + e);
                continue;
            }
            records += r.records();
            if (r.tornTail()) {
                long offset = r.endLsn() - firstLsns[i];
                String where = name + " offset " + offset + " (LSN " + r.endLsn() + ")";
                long after = size - offset;
                findings.problem(where, r.detail() + (newest
                        ? "; if the engine crashed while writing, this is the torn tail recovery truncates (" + after
                          + " bytes from here on would be dropped); otherwise the log is damaged"
                        : "; this segment is sealed, so records from here on are lost and recovery refuses to replay past it"));
            }
            if (!newest) {
                long expected = firstLsns[i + 1] - firstLsns[i];
                if (size != expected) {
                    findings.problem(name, "segment holds " + size + " bytes but the next segment starts at LSN "
                            + firstLsns[i + 1] + ", " + expected + " bytes after this one's start");
                }
            }
        }
    }
}
