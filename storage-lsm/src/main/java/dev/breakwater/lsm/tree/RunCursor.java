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
 * so a short scan touches only the tables it needs. Starts at the first key {@code >= from}.
 *
 * <p>Thread safety: none; one thread. The caller keeps the version holding the run referenced.
 */
final class RunCursor implements EntryCursor {

    private final VersionSet versions;
    private final List<TableMeta> tables;
    private final byte[] from;
    private final IoPurpose purpose;
    private int nextTable;
    private EntryCursor current;

    RunCursor(VersionSet versions, Run run, byte[] from, IoPurpose purpose) {
        this.versions = versions;
        this.tables = run.tables();
        this.from = from;
        this.purpose = purpose;
        // Skip tables that end before the start key.
        int i = 0;
        if (from != null) {
            while (i < tables.size() && Arrays.compareUnsigned(tables.get(i).largest(), from) < 0) {
                i++;
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
            if (nextTable >= tables.size()) {
                return false;
            }
            TableMeta t = tables.get(nextTable++);
            current = from == null ? versions.reader(t.fileNumber()).cursor(null, 0, purpose)
                    : versions.reader(t.fileNumber()).cursor(from, from.length, purpose);
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
        nextTable = tables.size();
    }
}
