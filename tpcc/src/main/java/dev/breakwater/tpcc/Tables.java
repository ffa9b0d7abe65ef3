package dev.breakwater.tpcc;

import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.StorageEngine;

/**
 * Handles to the datasets of {@link Schema} in one engine.
 *
 * <p>Thread safety: immutable; dataset handles are safe from any thread.
 */
public record Tables(StorageEngine engine, Dataset warehouse, Dataset district, Dataset customer, Dataset history,
                     Dataset newOrder, Dataset order, Dataset orderLine, Dataset item, Dataset stock, Dataset meta) {

    /** True if the engine already holds the harness's datasets. */
    public static boolean exist(StorageEngine engine) {
        return engine.datasetNames().contains(Schema.META);
    }

    /** Creates every dataset. Requires: none of them exists. */
    public static Tables create(StorageEngine engine) {
        for (DatasetSpec spec : Schema.all()) {
            engine.createDataset(spec);
        }
        return open(engine);
    }

    /** Handles to existing datasets. */
    public static Tables open(StorageEngine engine) {
        return new Tables(engine, engine.dataset(Schema.WAREHOUSE), engine.dataset(Schema.DISTRICT),
                engine.dataset(Schema.CUSTOMER), engine.dataset(Schema.HISTORY), engine.dataset(Schema.NEW_ORDER),
                engine.dataset(Schema.ORDER), engine.dataset(Schema.ORDER_LINE), engine.dataset(Schema.ITEM),
                engine.dataset(Schema.STOCK), engine.dataset(Schema.META));
    }
}
