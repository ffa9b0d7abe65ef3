package dev.breakwater.lsm.memory;

import dev.breakwater.lsm.EntryCursor;

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
final class MemorySSTableCursor implements EntryCursor {

    private final MemorySSTable table;
    private int page;
    private int slot;
    private byte[] key = new byte[64];
    private int keyLength;
    private byte[] value = new byte[64];
    private int valueLength;
    private boolean tombstone;
    private long lsn;

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
        if (key.length < keyLength) {
            key = new byte[Math.max(keyLength, key.length * 2)];
        }
        long keyAddress = MemorySSTable.keyAddress(entry);
        OffHeapKeys.copyOut(keyAddress, key, keyLength);
        int raw = MemorySSTable.rawValueLength(entry);
        tombstone = raw == MemorySSTableDescriptor.TOMBSTONE;
        valueLength = tombstone ? 0 : raw;
        if (value.length < valueLength) {
            value = new byte[Math.max(valueLength, value.length * 2)];
        }
        OffHeapKeys.copyOut(keyAddress + keyLength, value, valueLength);
        lsn = MemorySSTable.seq(entry);
        return true;
    }

    @Override
    public byte[] key() {
        return key;
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public byte[] value() {
        return value;
    }

    @Override
    public int valueLength() {
        return valueLength;
    }

    @Override
    public boolean isTombstone() {
        return tombstone;
    }

    @Override
    public long lsn() {
        return lsn;
    }

    @Override
    public void close() {
        page = table.pageCount();
        keyLength = 0;
        valueLength = 0;
    }
}
