package dev.breakwater.tpcc;

import dev.breakwater.txn.Key;
import dev.breakwater.txn.Tuple;

/**
 * The harness's metadata in dataset {@value Schema#META}: the loaded warehouse count, the C-Load
 * constant for C_LAST, and whether the load completed. A directory without {@link #LOADED} set holds
 * a partial load and must not be used.
 *
 * <p>Thread safety: as the underlying dataset (safe).
 */
public final class MetaStore {

    public static final String WAREHOUSES = "warehouses";
    public static final String C_LAST_LOAD = "c_last_load";
    public static final String LOADED = "loaded";
    /** Set to 1 before the first run: condition 11 holds only on a database no transaction has changed. */
    public static final String RAN = "ran";

    private final Tables tables;

    public MetaStore(Tables tables) {
        this.tables = tables;
    }

    /** The value of {@code name}, or {@code fallback} if unset. */
    public long get(String name, long fallback) {
        Tuple t = tables.meta().get(Key.of(name));
        return t == null ? fallback : t.getLong(Schema.META_VALUE);
    }

    public void put(String name, long value) {
        tables.meta().upsert(Tuple.of(name, value));
    }

    public boolean isLoaded() {
        return get(LOADED, 0) == 1;
    }
}
