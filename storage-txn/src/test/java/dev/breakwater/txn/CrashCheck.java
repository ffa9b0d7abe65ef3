package dev.breakwater.txn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks a recovered {@link CrashWorkload} directory against a {@link CrashModel} and counts every
 * kind of damage instead of stopping at the first, so a soak can report totals.
 *
 * <ul>
 *   <li><b>lost</b>: acknowledged transactions whose ledger row is missing;
 *   <li><b>phantom</b>: ledger rows of transactions no child ever tried;
 *   <li><b>partial</b>: transactions whose ledger row and events disagree (a ledger row without
 *       exactly its n events, or events without a ledger row) — a transaction partly visible;
 *   <li><b>index mismatches</b>: entries of the {@code by_tag} index with no event, events with no
 *       index entry, and duplicate index entries (the secondary index must equal its primary);
 *   <li><b>counter mismatches</b>: groups whose counter differs from its number of ledger rows.
 * </ul>
 *
 * <p>Memory: one {@code long} per event (the index entries, sorted), the rest is streamed in key
 * order. Thread safety: stateless; the engine must not be written while a check runs.
 */
public final class CrashCheck {

    private static final int MAX_EXAMPLES = 5;

    private CrashCheck() {
    }

    /** Counts of each kind of damage, plus up to five examples for a failure message. */
    public record Result(long ledgerRows, long ackedRows, long inDoubtRows, long lost, long phantom, long partial,
            long indexMismatches, long counterMismatches, List<String> examples) {

        /** True when no damage of any kind was found. */
        public boolean clean() {
            return lost == 0 && phantom == 0 && partial == 0 && indexMismatches == 0 && counterMismatches == 0;
        }
    }

    /** Checks the open {@code engine} (which holds the workload's datasets) against {@code model}. */
    public static Result check(StorageEngine engine, CrashModel model) {
        List<String> examples = new ArrayList<>();
        long rows = 0;
        long ackedRows = 0;
        long inDoubt = 0;
        long phantom = 0;
        long partial = 0;
        long[] perGroup = new long[CrashWorkload.GROUPS];
        long events = 0;
        long[] eventKeys = new long[1024];
        try (Cursor<Tuple> ledger = engine.dataset("ledger").scan(KeyRange.all());
                Cursor<Tuple> ev = engine.dataset("events").scan(KeyRange.all())) {
            Tuple e = ev.hasNext() ? ev.next() : null;
            while (ledger.hasNext()) {
                Tuple row = ledger.next();
                long txn = row.getLong(0);
                rows++;
                perGroup[row.getInt(1)]++;
                if (model.acked(txn)) {
                    ackedRows++;
                } else if (model.tried(txn)) {
                    inDoubt++;
                } else {
                    phantom++;
                    example(examples, "phantom transaction " + txn);
                }
                // events of transactions below this one have no ledger row
                while (e != null && e.getLong(0) < txn) {
                    partial++;
                    example(examples, "event " + e.getLong(0) + "/" + e.getInt(1) + " without its ledger row");
                    eventKeys = add(eventKeys, events++, pack(e));
                    e = ev.hasNext() ? ev.next() : null;
                }
                int n = 0;
                while (e != null && e.getLong(0) == txn) {
                    n++;
                    eventKeys = add(eventKeys, events++, pack(e));
                    e = ev.hasNext() ? ev.next() : null;
                }
                if (n != row.getInt(2)) {
                    partial++;
                    example(examples, "transaction " + txn + " has " + n + " of its " + row.getInt(2) + " events");
                }
            }
            while (e != null) {
                partial++;
                example(examples, "event " + e.getLong(0) + "/" + e.getInt(1) + " without its ledger row");
                eventKeys = add(eventKeys, events++, pack(e));
                e = ev.hasNext() ? ev.next() : null;
            }
        }
        long lost = model.ackedCount() - ackedRows;
        if (lost > 0) {
            example(examples, lost + " acknowledged transactions are missing");
        }
        long indexMismatches = indexMismatches(engine, eventKeys, events, examples);
        long counterMismatches = 0;
        Dataset counter = engine.dataset("counter");
        for (int g = 0; g < CrashWorkload.GROUPS; g++) {
            Tuple c = counter.get(Key.of(g));
            long count = c == null ? -1 : c.getLong(1);
            if (count != perGroup[g]) {
                counterMismatches++;
                example(examples, "counter of group " + g + " is " + count + ", ledger rows " + perGroup[g]);
            }
        }
        return new Result(rows, ackedRows, inDoubt, lost, phantom, partial, indexMismatches, counterMismatches, examples);
    }

    /** Symmetric difference of the index's (txn, i) entries and the events' keys, plus duplicates. */
    private static long indexMismatches(StorageEngine engine, long[] primary, long events, List<String> examples) {
        long[] indexed = new long[1024];
        int n = 0;
        try (Cursor<Tuple> c = engine.dataset("events").index("by_tag").scan(KeyRange.all())) {
            while (c.hasNext()) {
                indexed = add(indexed, n++, pack(c.next()));
            }
        }
        Arrays.sort(indexed, 0, n);
        long mismatches = 0;
        int i = 0;
        int j = 0;
        while (i < events || j < n) {
            if (j > 0 && j < n && indexed[j] == indexed[j - 1]) {
                mismatches++;
                example(examples, "duplicate index entry " + unpack(indexed[j]));
                j++;
            } else if (j >= n || (i < events && primary[i] < indexed[j])) {
                mismatches++;
                example(examples, "event " + unpack(primary[i]) + " is missing from the index");
                i++;
            } else if (i >= events || indexed[j] < primary[i]) {
                mismatches++;
                example(examples, "index entry " + unpack(indexed[j]) + " has no event");
                j++;
            } else {
                i++;
                j++;
            }
        }
        return mismatches;
    }

    /** Events are (txn, i) with 0 <= i < 8, in key order when packed as txn * 8 + i. */
    private static long pack(Tuple event) {
        return event.getLong(0) * 8 + event.getInt(1);
    }

    private static String unpack(long packed) {
        return (packed >> 3) + "/" + (packed & 7);
    }

    private static long[] add(long[] a, long index, long value) {
        long[] r = index < a.length ? a : Arrays.copyOf(a, a.length * 2);
        r[(int) index] = value;
        return r;
    }

    private static void example(List<String> examples, String what) {
        if (examples.size() < MAX_EXAMPLES) {
            examples.add(what);
        }
    }
}
