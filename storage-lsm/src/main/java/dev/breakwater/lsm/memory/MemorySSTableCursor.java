package dev.breakwater.lsm.memory;

import dev.breakwater.lsm.BufferedEntryCursor;

/**
 * A forward cursor over a {@link MemorySSTable}, from a position found by the table's binary search:
 * walks the slots of a page, then the next page. Copies key and value into arrays it owns and grows,
 * so it allocates nothing per entry once they are large enough.
 *
 * <p>Invariant: {@code (page, slot)} is the next entry to return, or {@code slot} equals the page's
 * entry count (then the next page's slot 0 is next); {@code page == pageCount} means exhausted.
 *
 * <p>Thread safety: one thread. Requires: the table stays referenced until the cursor is closed.
 */
final class MemorySSTableCursor extends BufferedEntryCursor {

    private final MemorySSTable table;
    private int page;
    private int slot;

    MemorySSTableCursor(MemorySSTable table, int page, int slot) {
        this.table = table;
        this.page = page;
        this.slot = slot;
    }

    @Override
    public boolean next() {
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
            keyLength = 0;
            valueLength = 0;
            return false;
        }
        long entry = MemorySSTable.entry(table.page(page), slot++);
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

    @Override
    public void close() {
        page = table.pageCount();
        keyLength = 0;
        valueLength = 0;
    }
}
