package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child process of {@link KillRecoverTest}: runs random multi-record transactions over three
 * datasets until killed, printing {@code ACK <txn id>} after each commit returns (SYNC durability).
 *
 * <p>Each transaction with id T in group g inserts ledger(T) = (g, n), inserts n events (T, i) with
 * an indexed field, and increments counter(g) by one. The invariants a recovered engine must hold:
 * every acknowledged T has its ledger row and all n events; every ledger row has exactly its n
 * events and the event index agrees with the events; counter(g) equals the number of ledger rows of
 * group g.
 */
public final class CrashWorkload {

    static final int GROUPS = 8;

    static DatasetSpec ledger() {
        return DatasetSpec.builder("ledger").field("txn", INT64).field("grp", INT32).field("n", INT32).primaryKey("txn").build();
    }

    static DatasetSpec events() {
        return DatasetSpec.builder("events").field("txn", INT64).field("i", INT32).field("tag", STRING).field("pad", STRING)
                .primaryKey("txn", "i").secondaryIndex("by_tag", "tag").build();
    }

    static DatasetSpec counters() {
        return DatasetSpec.builder("counter").field("grp", INT32).field("count", INT64).primaryKey("grp").build();
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long firstTxn = Long.parseLong(args[1]);
        SplittableRandom rnd = new SplittableRandom(firstTxn);
        PrintStream out = System.out;
        try (StorageEngine engine = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            if (!engine.datasetNames().contains("ledger")) {
                engine.createDataset(ledger());
                engine.createDataset(events());
                Dataset counter = engine.createDataset(counters());
                for (int g = 0; g < GROUPS; g++) {
                    counter.insert(Tuple.of(g, 0L));
                }
            }
            Dataset ledger = engine.dataset("ledger");
            Dataset events = engine.dataset("events");
            Dataset counter = engine.dataset("counter");
            out.println("READY");
            out.flush();
            for (long txn = firstTxn; ; txn++) {
                long t = txn;
                int grp = rnd.nextInt(GROUPS);
                int n = 1 + rnd.nextInt(6);
                String pad = "p".repeat(rnd.nextInt(200));
                engine.inTransaction(tx -> {
                    tx.insert(ledger, Tuple.of(t, grp, n));
                    for (int i = 0; i < n; i++) {
                        tx.insert(events, Tuple.of(t, i, "tag" + ((t + i) % 17), pad));
                    }
                    Tuple c = tx.get(counter, Key.of(grp));
                    tx.upsert(counter, c.with(1, c.getLong(1) + 1));
                });
                out.println("ACK " + t);
                out.flush();
            }
        }
    }
}
