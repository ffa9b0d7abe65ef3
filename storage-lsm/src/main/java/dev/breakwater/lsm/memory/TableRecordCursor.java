package dev.breakwater.lsm.memory;

import java.util.List;

/**
 * A {@link RecordCursor} over a run of {@link MemorySSTable}s: disjoint tables in key order (a
 * memory level, or the tables of one that a merge takes), walked slot by slot, page by page, table
 * by table, in place.
 *
 * <p>Invariant: {@code (table, page, slot)} is the next entry to return, where a slot at a page's
 * entry count means the next page's slot 0 and a page at the table's page count the next table's
 * page 0; {@code table == tables.length} means exhausted.
 *
 * <p>Thread safety: one thread. Requires: every table stays referenced until the records read are
 * no longer used.
 */
final class TableRecordCursor implements RecordCursor {

    private final MemorySSTable[] tables;
    private int table;
    private int page;
    private int slot;
    private long entry;
    private int keyLength;
    private int rawValueLength;

    TableRecordCursor(List<MemorySSTable> run) {
        this.tables = run.toArray(new MemorySSTable[0]);
        for (MemorySSTable t : tables) {
            t.checkLive();
        }
    }

    @Override
    public boolean next() {
        while (table < tables.length) {
            MemorySSTable t = tables[table];
            if (page < t.pageCount()) {
                long p = t.page(page);
                if (slot < MemorySSTable.entryCount(p)) {
                    entry = MemorySSTable.entry(p, slot++);
                    keyLength = MemorySSTable.keyLength(entry);
                    rawValueLength = MemorySSTable.rawValueLength(entry);
                    return true;
                }
                page++;
                slot = 0;
            } else {
                table++;
                page = 0;
                slot = 0;
            }
        }
        return false;
    }

    @Override
    public long keyAddress() {
        return MemorySSTable.keyAddress(entry);
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public long valueAddress() {
        return MemorySSTable.keyAddress(entry) + keyLength;
    }

    @Override
    public int valueLength() {
        return rawValueLength == MemorySSTableDescriptor.TOMBSTONE ? 0 : rawValueLength;
    }

    @Override
    public boolean isTombstone() {
        return rawValueLength == MemorySSTableDescriptor.TOMBSTONE;
    }

    @Override
    public long seq() {
        return MemorySSTable.seq(entry);
    }

    /** The minimum log LSN of the table the current record is in. */
    @Override
    public long logLsnFloor() {
        return tables[Math.min(table, tables.length - 1)].minLogLsn();
    }

    @Override
    public void close() {
        table = tables.length;
    }
}
