package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's example, as written there (on a temporary directory), so the README stays true. */
class ReadmeExampleTest {

    @TempDir
    Path tmp;

    @Test
    void theReadmeExampleRuns() {
        List<Tuple> found = new ArrayList<>();
        try (StorageEngine engine = StorageEngine.open(tmp.resolve("data"))) {      // embedded defaults
            Dataset customer = engine.createDataset(DatasetSpec.builder("customer")
                    .field("w", INT32).field("d", INT32).field("id", INT32).field("last", STRING)
                    .primaryKey("w", "d", "id").secondaryIndex("by_last", "w", "d", "last").build());
            customer.upsert(Tuple.of(1, 2, 3, "BARBARBAR"));                      // its own durable transaction
            engine.inTransaction(tx -> {                                           // serializable, retried on deadlock
                Tuple c = tx.get(customer, Key.of(1, 2, 3));
                tx.upsert(customer, c.with(3, "OUGHTABLE"));
            });
            try (Cursor<Tuple> c = customer.index("by_last").scan(KeyRange.prefix(Key.of(1, 2, "OUGHT")))) {
                c.forEachRemaining(found::add);
            }
        }
        assertEquals(List.of(Tuple.of(1, 2, 3, "OUGHTABLE")), found);
    }
}
