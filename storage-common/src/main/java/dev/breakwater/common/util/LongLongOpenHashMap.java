package dev.breakwater.common.util;

/**
 * A map from {@code long} keys to {@code long} values with open addressing and linear probing, so
 * lookups and updates allocate nothing (no boxing). Deletion uses backward shifting, so there are no
 * tombstones and probe sequences stay short.
 *
 * <p>One key value, {@link #EMPTY_KEY} ({@code Long.MIN_VALUE}), is reserved and cannot be stored.
 * {@link #get} returns {@code missingValue} (chosen at construction) for absent keys.
 *
 * <p>Invariants: (1) the table length is a power of two; (2) {@code size < length * 3/4}, so every
 * probe sequence reaches an empty slot; (3) every stored key is reachable from its home slot without
 * crossing an empty slot.
 *
 * <p>Thread safety: not thread-safe. {@link #get} never loops more than the table length, so a
 * reader racing with a writer (as under an optimistic {@code StampedLock} read, which must then be
 * validated) terminates and may only return a wrong answer, never hang or throw.
 */
public final class LongLongOpenHashMap {

    /** The reserved key marking an empty slot. */
    public static final long EMPTY_KEY = Long.MIN_VALUE;

    private final long missingValue;
    /** Interleaved pairs: key at {@code 2*i}, value at {@code 2*i+1}; one array so a racing reader never pairs keys of one table with values of another. */
    private long[] table;
    private int capacity;
    private int size;

    public LongLongOpenHashMap(int expectedSize, long missingValue) {
        this.missingValue = missingValue;
        int c = 8;
        while (c * 3L / 4 <= expectedSize && c < (1 << 29)) {
            c <<= 1;
        }
        table = newTable(c);
        capacity = c;
    }

    private static long[] newTable(int capacity) {
        long[] t = new long[capacity * 2];
        for (int i = 0; i < t.length; i += 2) {
            t[i] = EMPTY_KEY;
        }
        return t;
    }

    /** Mixes the key bits (a Murmur3 finalizer) so sequential keys spread over the table. */
    public static long mix(long key) {
        return Hashing.fmix64(key);
    }

    public int size() {
        return size;
    }

    /** The value for {@code key}, or the missing value. */
    public long get(long key) {
        long[] t = table;
        int slots = t.length >> 1;
        int mask = slots - 1;
        int slot = (int) mix(key) & mask;
        for (int probes = 0; probes < slots; probes++) {
            long cur = t[slot << 1];
            if (cur == key) {
                return t[(slot << 1) + 1];
            }
            if (cur == EMPTY_KEY) {
                return missingValue;
            }
            slot = (slot + 1) & mask;
        }
        return missingValue;
    }

    public boolean containsKey(long key) {
        return indexOf(key) >= 0;
    }

    /** Associates {@code value} with {@code key}; returns the previous value or the missing value. */
    public long put(long key, long value) {
        if (key == EMPTY_KEY) {
            throw new IllegalArgumentException("key " + key + " is reserved");
        }
        int mask = capacity - 1;
        int slot = (int) mix(key) & mask;
        while (true) {
            long cur = table[slot << 1];
            if (cur == key) {
                long old = table[(slot << 1) + 1];
                table[(slot << 1) + 1] = value;
                return old;
            }
            if (cur == EMPTY_KEY) {
                table[(slot << 1) + 1] = value;
                table[slot << 1] = key;
                if (++size * 4L >= capacity * 3L) {
                    rehash(capacity * 2);
                }
                return missingValue;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Removes {@code key}; returns its value or the missing value. */
    public long remove(long key) {
        int slot = indexOf(key);
        if (slot < 0) {
            return missingValue;
        }
        long old = table[(slot << 1) + 1];
        deleteSlot(slot);
        return old;
    }

    /** Removes {@code key} only if it maps to {@code expected}; returns whether it did. */
    public boolean remove(long key, long expected) {
        int slot = indexOf(key);
        if (slot < 0 || table[(slot << 1) + 1] != expected) {
            return false;
        }
        deleteSlot(slot);
        return true;
    }

    public void clear() {
        table = newTable(capacity);
        size = 0;
    }

    private int indexOf(long key) {
        int mask = capacity - 1;
        int slot = (int) mix(key) & mask;
        while (true) {
            long cur = table[slot << 1];
            if (cur == key) {
                return slot;
            }
            if (cur == EMPTY_KEY) {
                return -1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Backward-shift deletion: pull later entries of the cluster into the hole when allowed. */
    private void deleteSlot(int hole) {
        int mask = capacity - 1;
        int slot = hole;
        while (true) {
            slot = (slot + 1) & mask;
            long cur = table[slot << 1];
            if (cur == EMPTY_KEY) {
                break;
            }
            int home = (int) mix(cur) & mask;
            // cur may move into the hole unless its home lies in the cyclic range (hole, slot].
            boolean homeBetween = hole <= slot ? (home > hole && home <= slot) : (home > hole || home <= slot);
            if (!homeBetween) {
                table[(hole << 1) + 1] = table[(slot << 1) + 1];
                table[hole << 1] = cur;
                hole = slot;
            }
        }
        table[hole << 1] = EMPTY_KEY;
        size--;
    }

    private void rehash(int newCapacity) {
        long[] old = table;
        long[] t = newTable(newCapacity);
        int mask = newCapacity - 1;
        for (int i = 0; i < old.length; i += 2) {
            long k = old[i];
            if (k != EMPTY_KEY) {
                int slot = (int) mix(k) & mask;
                while (t[slot << 1] != EMPTY_KEY) {
                    slot = (slot + 1) & mask;
                }
                t[slot << 1] = k;
                t[(slot << 1) + 1] = old[i + 1];
            }
        }
        table = t;
        capacity = newCapacity;
    }
}
