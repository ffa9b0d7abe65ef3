package dev.breakwater.txn;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.LogRecoveryMode;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.txn.log.LogCorruptedException;
import dev.breakwater.txn.log.LogOptions;
import dev.breakwater.txn.log.LogReader;
import dev.breakwater.txn.log.LogRecordFormat;
import dev.breakwater.txn.log.LogStopReason;
import dev.breakwater.txn.log.ReplayResult;
import dev.breakwater.txn.log.SegmentFiles;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash recovery at open: every tree reopened at its last installed version knows the LSN below
 * which all its writes are on disk; the log is replayed from the smallest of those (but not below
 * the checkpoint's log start), and each tree operation is re-applied only to a tree whose durable
 * LSN is below the record's. Replay is idempotent (re-applying an upsert or delete gives the same
 * state) and in LSN order, so the trees end exactly as the committed log says. A torn tail ends
 * replay cleanly; the log then continues after the last good record. Operations on trees the
 * catalog no longer names (dropped datasets) are skipped.
 *
 * <p>Damage a crash cannot explain, in the log ({@link LogCorruptedException}) or the checkpoint
 * ({@link CheckpointCorruptedException}), makes open fail with {@code log-recovery: STRICT} (the
 * default), before any file is changed. With {@code SALVAGE}, a damaged checkpoint is ignored
 * (replay starts at the oldest segment present) and a damaged log is replayed up to the damage and
 * then handed to {@link LogSalvage}.
 */
final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private Recovery() {
    }

    static ReplayResult replay(StorageEngine engine) throws IOException {
        boolean salvage = engine.config.get(ConfigOptions.LOG_RECOVERY) == LogRecoveryMode.SALVAGE;
        long from = Long.MAX_VALUE;
        for (LsmTree t : engine.trees.values()) {
            from = Math.min(from, t.durableLsn() + 1);
        }
        if (from == Long.MAX_VALUE) {
            from = 0;
        }
        // A tree idle since an old durable LSN needs none of the records the monitor truncated.
        CheckpointFile.Contents checkpoint = readCheckpoint(engine, salvage);
        if (checkpoint != null) {
            from = Math.max(from, checkpoint.logStartLsn());
        }
        long start = System.nanoTime();
        long[] counts = new long[2]; // records and bytes (headers included) accepted, for salvage
        long applied = 0;
        LogOptions options = LogOptions.fromConfig(engine.config);
        LogReader reader = new LogReader(engine.fs, engine.logDir(), options.maxRecordSize(), engine.io);
        int threads = ReplayApplier.threads(engine.config.get(ConfigOptions.RECOVERY_THREADS));
        ReplayResult r;
        try (ReplayApplier applier = new ReplayApplier(engine.trees, engine.limits, threads)) {
            try {
                r = reader.forEach(from, (lsn, payload) -> {
                    counts[0]++;
                    counts[1] += LogRecordFormat.recordLength(payload.remaining());
                    applier.accept(lsn, payload);
                });
                applied = applier.finish();
                if (checkpoint != null && checkpoint.checksummed() && r.endLsn() < checkpoint.logEndLsn()) {
                    throw shorterThanCheckpoint(engine, r, checkpoint);
                }
            } catch (LogCorruptedException e) {
                if (!salvage) {
                    throw e;
                }
                // Every record before the damage was accepted: apply them all before salvage flushes.
                applied = applier.finish();
                r = LogSalvage.salvage(engine, e, from, counts[0], counts[1]);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (r.records() > 0 || r.stopReason() != LogStopReason.END_OF_LOG) {
            LOG.info("recovery: replayed {} log records ({} MB, {} tree operations applied by {} threads) from LSN {} in {} s ({} MB/s); stopped: {}",
                    r.records(), String.format("%.1f", r.bytes() / 1e6), applied, threads, from, String.format("%.2f", seconds),
                    String.format("%.1f", r.bytes() / 1e6 / Math.max(seconds, 1e-9)), r.detail());
        }
        return r;
    }

    /**
     * The log ended cleanly (or at a torn tail) below the end the checkpoint saw fsynced: durable
     * records are gone, e.g. a damaged final record (which on its own looks torn) or a lost newest segment.
     */
    private static LogCorruptedException shorterThanCheckpoint(StorageEngine engine, ReplayResult r,
                                                               CheckpointFile.Contents checkpoint) {
        Path segment = r.lastSegment() == null ? engine.logDir() : r.lastSegment();
        long first = r.lastSegment() == null ? 0 : SegmentFiles.parse(segment.getFileName().toString());
        return new LogCorruptedException(segment, r.endLsn() - first, r.endLsn(), "the log ends at LSN " + r.endLsn()
                + (r.tornTail() ? " (" + r.detail() + ")" : "") + " but the checkpoint " + engine.dir.resolve(
                CheckpointFile.NAME) + " was written when it was durable up to LSN " + checkpoint.logEndLsn()
                + ": durable records are missing");
    }

    /**
     * The last checkpoint, or null if there is none. A damaged checkpoint fails, unless salvaging:
     * then it is ignored and replay starts at the oldest segment present.
     */
    private static CheckpointFile.Contents readCheckpoint(StorageEngine engine, boolean salvage) throws IOException {
        try {
            return CheckpointFile.read(engine.fs, engine.dir);
        } catch (CheckpointCorruptedException e) {
            if (!salvage) {
                throw e;
            }
            long[] segments = engine.fs.exists(engine.logDir()) ? SegmentFiles.list(engine.fs, engine.logDir())
                    : new long[0];
            long oldest = segments.length == 0 ? 0 : segments[0];
            LOG.error("log salvage: {}; ignoring it and replaying every log segment present, from LSN {}",
                    e.getMessage(), oldest);
            return new CheckpointFile.Contents(oldest, oldest, false);
        }
    }
}
