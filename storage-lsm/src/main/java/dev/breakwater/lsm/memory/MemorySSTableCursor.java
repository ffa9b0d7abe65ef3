package dev.breakwater.lsm.memory;

import dev.breakwater.lsm.BufferedEntryCursor;

/**
 * A cursor over a {@link MemorySSTable}, forward or backward, from a position found by the table's
 * binary search: walks the slots of a page, then the next (or previous) page. Copies key and value
 * into arrays it owns and grows, so it allocates nothing per entry once they are large enough.
 *
 * <p>Invariant, forward: {@code (page, slot)} is the next entry to return, or {@code slot} equals the
 * page's entry count (then the next page's slot 0 is next); {@code page == pageCount} means
 * exhausted. Backward: the next entry to return is {@code (page, slot - 1)}, or, when {@code slot}
 * is 0, the last entry of the nearest earlier non-empty page; {@code page < 0} means exhausted.
 *
 * <p>Thread safety: one thread. Requires: the table stays referenced until the cursor is closed.
 */
final class MemorySSTableCursor extends BufferedEntryCursor {

    private final MemorySSTable table;
    private final boolean descending;
    private int page;
    private int slot;

    MemorySSTableCursor(MemorySSTable table, int page, int slot, boolean descending) {
        this.table = table;
        this.page = page;
        this.slot = slot;
        this.descending = descending;
    }

    @Override
    public boolean next() {
        long entry = descending ? previousEntry() : nextEntry();
        if (entry == 0) {
            keyLength = 0;
            valueLength = 0;
            return false;
        }
        keyLength = MemorySSTable.keyLength(entry);
        keyBuffer(keyLength);
        long keyAddress = MemorySSTable.keyAddress(entry);
        OffHeapKeys.copyOut(keyAddress, key, keyLength);
        int raw = MemorySSTable.rawValueLength(entry);
        tombstone = raw == MemorySSTableDescriptor.TOMBSTONE;
        valueLength = tombstone ? 0 : raw;
        valueBuffer(valueLength);
        OffHeapKeys.copyOut(keyAddress + keyLength, value, valueLength);
        lsn = MemorySSTable.seq(entry);
        return true;
    }

    /** The address of the next entry forward, 0 at the end. */
    private long nextEntry() {
        int pages = table.pageCount();
        if (page < pages) {
            table.checkLive();
        }
        while (page < pages && slot >= MemorySSTable.entryCount(table.page(page))) {
            page++;
            slot = 0;
        }
        if (page >= pages) {
            page = pages;
            return 0;
        }
        return MemorySSTable.entry(table.page(page), slot++);
    }

    /** The address of the next entry backward, 0 at the start. */
    private long previousEntry() {
        if (page >= 0) {
            table.checkLive();
        }
        while (page >= 0 && slot <= 0) {
            page--;
            slot = page >= 0 ? MemorySSTable.entryCount(table.page(page)) : 0;
        }
        if (page < 0) {
            return 0;
        }
        return MemorySSTable.entry(table.page(page), --slot);
    }

    @Override
    public void close() {
        page = descending ? -1 : table.pageCount();
        slot = 0;
        keyLength = 0;
        valueLength = 0;
    }
}
