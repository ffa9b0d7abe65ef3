package dev.breakwater.txn;

import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.txn.log.LogOptions;
import dev.breakwater.txn.log.LogReader;
import dev.breakwater.txn.log.ReplayResult;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash recovery at open: every tree reopened at its last installed version knows the LSN below
 * which all its writes are on disk; the log is replayed from the smallest of those, and each tree
 * operation is re-applied only to a tree whose durable LSN is below the record's. Replay is
 * idempotent (re-applying an upsert or delete gives the same state) and in LSN order, so the trees
 * end exactly as the committed log says. A torn tail ends replay cleanly; the log then continues
 * after the last good record. Operations on trees the catalog no longer names (dropped datasets)
 * are skipped.
 */
final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private Recovery() {
    }

    static ReplayResult replay(StorageEngine engine) throws IOException {
        long from = Long.MAX_VALUE;
        for (LsmTree t : engine.trees.values()) {
            from = Math.min(from, t.durableLsn() + 1);
        }
        if (from == Long.MAX_VALUE) {
            from = 0;
        }
        // A tree idle since an old durable LSN needs none of the records the monitor truncated.
        from = Math.max(from, EngineMonitor.recordedLogStart(engine));
        long start = System.nanoTime();
        long[] applied = {0};
        LogOptions options = LogOptions.fromConfig(engine.config);
        ReplayResult r = new LogReader(engine.fs, engine.logDir(), options.maxRecordSize(), engine.io).forEach(from, (lsn, payload) -> {
            List<TreeOp> ops;
            try {
                ops = CommitRecordFormat.decode(payload);
            } catch (IllegalArgumentException e) {
                throw new IOException("log record at LSN " + lsn + " passed its checksum but is not a commit record: " + e.getMessage(), e);
            }
            for (TreeOp op : ops) {
                LsmTree tree = engine.trees.get(op.treeId());
                if (tree != null && lsn > tree.durableLsn()) {
                    engine.limits.checkReplayed(lsn, op, "tree " + tree.name());
                    tree.write(op.key(), op.key().length, op.value(), op.value().length, op.delete(), lsn);
                    applied[0]++;
                }
            }
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        if (r.records() > 0 || r.tornTail()) {
            LOG.info("recovery: replayed {} log records ({} MB, {} tree operations applied) from LSN {} in {} s ({} MB/s); stopped: {}",
                    r.records(), String.format("%.1f", r.bytes() / 1e6), applied[0], from, String.format("%.2f", seconds),
                    String.format("%.1f", r.bytes() / 1e6 / Math.max(seconds, 1e-9)), r.detail());
        }
        return r;
    }
}
