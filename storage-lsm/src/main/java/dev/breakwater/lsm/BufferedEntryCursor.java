package dev.breakwater.lsm;

/**
 * Base of the cursors that copy each entry into arrays they own and reuse (memory components,
 * memory and disk SSTables, merges): the current entry's fields and their accessors, and the growth
 * of the arrays, in one place. Subclasses fill the fields in {@link #next()}; nothing is allocated
 * per entry once the arrays are large enough.
 *
 * <p>Thread safety: none; a cursor is used by one thread.
 */
public abstract class BufferedEntryCursor implements EntryCursor {

    protected byte[] key = new byte[64];
    protected int keyLength;
    protected byte[] value = new byte[64];
    protected int valueLength;
    protected boolean tombstone;
    protected long lsn;

    /** Makes room for a key of {@code length} bytes, sets {@link #keyLength}, and returns the array to fill. */
    protected final byte[] keyBuffer(int length) {
        if (key.length < length) {
            key = new byte[Math.max(length, key.length * 2)];
        }
        keyLength = length;
        return key;
    }

    /** Makes room for a value of {@code length} bytes, sets {@link #valueLength}, and returns the array to fill. */
    protected final byte[] valueBuffer(int length) {
        if (value.length < length) {
            value = new byte[Math.max(length, value.length * 2)];
        }
        valueLength = length;
        return value;
    }

    @Override
    public final byte[] key() {
        return key;
    }

    @Override
    public final int keyLength() {
        return keyLength;
    }

    @Override
    public final byte[] value() {
        return value;
    }

    @Override
    public final int valueLength() {
        return valueLength;
    }

    @Override
    public final boolean isTombstone() {
        return tombstone;
    }

    @Override
    public final long lsn() {
        return lsn;
    }
}
