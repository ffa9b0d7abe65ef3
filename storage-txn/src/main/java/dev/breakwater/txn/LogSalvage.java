package dev.breakwater.txn;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.txn.log.LogCorruptedException;
import dev.breakwater.txn.log.LogStopReason;
import dev.breakwater.txn.log.ReplayResult;
import dev.breakwater.txn.log.SegmentFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salvage of a corrupted log ({@code log-recovery: SALVAGE}), after {@link Recovery} replayed every
 * record before the damage. It makes what was replayed durable and gives the log a fresh start
 * above every LSN the old log or any tree ever used, moving every old segment aside, never deleting:
 * <ol>
 *   <li>flush every tree, so nothing replayed depends on the old segments any more;</li>
 *   <li>create an empty segment at the new start (unless the newest old segment is empty and
 *       already starts there);</li>
 *   <li>rename every other segment into {@code log/salvaged-<millis>/}, oldest first, and fsync;</li>
 *   <li>write a checkpoint whose log start and durable end are the new start, so the next recovery
 *       begins there.</li>
 * </ol>
 * The new start is above the old log's physical end and above every tree's durable LSN, so a new
 * record never gets an LSN that a tree already counts as durable (replay would skip it). A crash
 * before step 3 leaves the damaged log (a strict open refuses again; salvage runs again); a crash
 * after it leaves the old checkpoint pointing below the new segment, which a strict open refuses as
 * missing segments and a salvage open completes. The old segments are never left where normal log
 * truncation could delete them.
 *
 * <p>What is lost: every record at and after the damage. Trees that flushed such records before
 * the crash keep them, so after a salvage datasets and their secondary indexes may disagree about
 * those last transactions; the ERROR log says so.
 *
 * <p>Thread safety: runs once, on the opening thread, before the log is open.
 */
final class LogSalvage {

    private static final Logger LOG = LoggerFactory.getLogger(LogSalvage.class);

    private LogSalvage() {
    }

    /** Salvages after {@code damage}; {@code records}/{@code bytes} were replayed from {@code from}. */
    static ReplayResult salvage(StorageEngine engine, LogCorruptedException damage, long from, long records, long bytes)
            throws IOException {
        FileSystem fs = engine.fs;
        Path logDir = engine.logDir();
        fs.createDirectories(logDir);
        long[] firstLsns = SegmentFiles.list(fs, logDir);
        long newest = firstLsns.length == 0 ? 0 : firstLsns[firstLsns.length - 1];
        long newestSize = firstLsns.length == 0 ? -1 : fs.size(SegmentFiles.path(logDir, newest));
        long oldEnd = newest + Math.max(newestSize, 0);
        long newStart = Math.max(oldEnd, damage.lsn());
        for (LsmTree t : engine.trees.values()) {
            t.flush();
        }
        Map<Long, Long> durable = new LinkedHashMap<>();
        for (var e : engine.trees.entrySet()) {
            durable.put(e.getKey(), e.getValue().durableLsn());
            newStart = Math.max(newStart, e.getValue().durableLsn() + 1);
        }
        boolean reuseNewest = newestSize == 0 && newest == newStart;
        if (!reuseNewest) {
            try (StorageFile f = fs.open(SegmentFiles.path(logDir, newStart), OpenOption.CREATE_NEW, OpenOption.WRITE)) {
                f.sync();
            }
            fs.syncDirectory(logDir);
        }
        Path aside = logDir.resolve("salvaged-" + System.currentTimeMillis());
        fs.createDirectories(aside);
        int moved = 0;
        for (long first : firstLsns) {
            if (reuseNewest && first == newest) {
                continue;
            }
            fs.rename(SegmentFiles.path(logDir, first), aside.resolve(SegmentFiles.fileName(first)));
            moved++;
        }
        fs.syncDirectory(aside);
        fs.syncDirectory(logDir);
        CheckpointFile.write(fs, engine.dir, newStart, newStart, durable);
        String detail = "salvaged after: " + damage.getMessage();
        LOG.error("log salvage: replayed {} records from LSN {} up to the damage at LSN {}; DROPPED every record from "
                + "LSN {} to the old log end {} ({} bytes), damage: {}. Moved {} old segments to {} (kept, not deleted). "
                + "The log continues at LSN {}. Trees that had flushed records after the damage keep them, so datasets "
                + "and their secondary indexes may disagree about the last transactions.", records, from, damage.lsn(),
                damage.lsn(), oldEnd, Math.max(0, oldEnd - damage.lsn()),
                damage.getMessage(), moved, aside, newStart);
        return new ReplayResult(from, newStart, records, bytes, LogStopReason.SALVAGED, detail,
                SegmentFiles.path(logDir, newStart));
    }
}
