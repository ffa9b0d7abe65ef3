package dev.breakwater.lsm.tree;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * A cursor over one run: its tables in key order, each opened only when the previous one is done,
 * so a short scan touches only the tables it needs. Starts at the first key {@code >= from}; a
 * descending cursor walks the tables last to first from the last key {@code < toExclusive}.
 *
 * <p>Thread safety: none; one thread. The caller keeps the version holding the run referenced.
 */
final class RunCursor implements EntryCursor {

    private final VersionSet versions;
    private final List<TableMeta> tables;
    /** The start key (forward, inclusive) or the end key (descending, exclusive); null for none. */
    private final byte[] bound;
    private final IoPurpose purpose;
    private final boolean descending;
    /** The next table to open; past either end of {@code tables} when none is left. */
    private int nextTable;
    private EntryCursor current;

    RunCursor(VersionSet versions, Run run, byte[] from, IoPurpose purpose) {
        this.versions = versions;
        this.tables = run.tables();
        this.bound = from;
        this.purpose = purpose;
        this.descending = false;
        // Skip tables that end before the start key.
        int i = 0;
        if (from != null) {
            while (i < tables.size() && Arrays.compareUnsigned(tables.get(i).largest(), from) < 0) {
                i++;
            }
        }
        this.nextTable = i;
    }

    /** A descending cursor over the run's keys below {@code toExclusive} (all if null). */
    static RunCursor descending(VersionSet versions, Run run, byte[] toExclusive, IoPurpose purpose) {
        return new RunCursor(versions, run, toExclusive, purpose, true);
    }

    private RunCursor(VersionSet versions, Run run, byte[] toExclusive, IoPurpose purpose, boolean descending) {
        this.versions = versions;
        this.tables = run.tables();
        this.bound = toExclusive;
        this.purpose = purpose;
        this.descending = descending;
        // Skip tables that start at or after the bound.
        int i = tables.size() - 1;
        if (toExclusive != null) {
            while (i >= 0 && Arrays.compareUnsigned(tables.get(i).smallest(), toExclusive) >= 0) {
                i--;
            }
        }
        this.nextTable = i;
    }

    @Override
    public boolean next() throws IOException {
        while (true) {
            if (current != null) {
                if (current.next()) {
                    return true;
                }
                current.close();
                current = null;
            }
            if (nextTable < 0 || nextTable >= tables.size()) {
                return false;
            }
            TableMeta t = tables.get(nextTable);
            int boundLength = bound == null ? 0 : bound.length;
            if (descending) {
                nextTable--;
                current = versions.reader(t.fileNumber()).reverseCursor(bound, boundLength, purpose);
            } else {
                nextTable++;
                current = versions.reader(t.fileNumber()).cursor(bound, boundLength, purpose);
            }
        }
    }

    @Override
    public byte[] key() {
        return current.key();
    }

    @Override
    public int keyLength() {
        return current.keyLength();
    }

    @Override
    public byte[] value() {
        return current.value();
    }

    @Override
    public int valueLength() {
        return current.valueLength();
    }

    @Override
    public boolean isTombstone() {
        return current.isTombstone();
    }

    @Override
    public long lsn() {
        return current.lsn();
    }

    @Override
    public void close() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
        nextTable = -1;
    }
}
