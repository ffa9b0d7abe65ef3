package dev.breakwater.lsm.tree;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link LevelCursor} over one disk run: its SSTables, opened through the version set's readers.
 *
 * <p>Thread safety: none; one thread. The caller keeps the version holding the run referenced.
 */
final class RunCursor extends LevelCursor {

    private final VersionSet versions;
    private final List<TableMeta> tables;
    private final IoPurpose purpose;

    /**
     * @param start forward: the inclusive start key; descending: the exclusive upper bound (null: open)
     * @param end   forward: the exclusive end key; descending: the inclusive lower bound (null: open)
     */
    RunCursor(VersionSet versions, Run run, byte[] start, byte[] end, boolean descending, IoPurpose purpose,
              LongAdder tablesOpened) {
        super(start, end, descending, tablesOpened);
        this.versions = versions;
        this.tables = run.tables();
        this.purpose = purpose;
    }

    @Override
    int size() {
        return tables.size();
    }

    @Override
    int compareSmallest(int i, byte[] key) {
        return Arrays.compareUnsigned(tables.get(i).smallest(), key);
    }

    @Override
    int compareLargest(int i, byte[] key) {
        return Arrays.compareUnsigned(tables.get(i).largest(), key);
    }

    @Override
    EntryCursor open(int i, byte[] bound, boolean descending) throws IOException {
        int boundLength = bound == null ? 0 : bound.length;
        var reader = versions.reader(tables.get(i).fileNumber());
        return descending ? reader.reverseCursor(bound, boundLength, purpose) : reader.cursor(bound, boundLength, purpose);
    }
}
