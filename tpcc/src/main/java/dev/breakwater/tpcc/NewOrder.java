package dev.breakwater.tpcc;

import static dev.breakwater.tpcc.Schema.*;

import dev.breakwater.txn.Key;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The New-Order transaction (clause 2.4).
 *
 * <p>Locking: the district row is read for update (exclusive before read) so New-Orders of one
 * district queue on it instead of deadlocking on D_NEXT_O_ID; stock rows are locked for update in
 * (supply warehouse, item) order so New-Orders never deadlock with each other. W_TAX, C_DISCOUNT,
 * C_LAST, C_CREDIT and the ITEM table are never written by any transaction, so they are read
 * without locks (every committed version has the same values), which keeps New-Order off the
 * warehouse row that every Payment of the warehouse updates.
 *
 * <p>Rollback: with probability 1% the last item number is unused (clause 2.4.1.4); the body then
 * throws {@link SpecRollback} after its district update and order inserts, and the executor aborts
 * the transaction.
 *
 * <p>Thread safety: stateless.
 */
final class NewOrder {

    /** One order line's input: item, supplying warehouse, quantity. */
    record Line(int itemId, int supplyW, int quantity) {
    }

    record Input(int w, int d, int c, Line[] lines, long entryDate) {
    }

    /** Item numbers above the ITEM table: the "unused" value of the 1% rollback. */
    static final int UNUSED_ITEM = ITEMS + 1;

    private NewOrder() {
    }

    static Input generate(TpccRandom rnd, int homeW, int warehouses) {
        int d = rnd.uniform(1, DISTRICTS);
        int c = rnd.customerId();
        int olCnt = rnd.uniform(5, 15);
        boolean rollback = rnd.uniform(1, 100) == 1;
        Line[] lines = new Line[olCnt];
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < olCnt; i++) {
            int item;
            do {
                item = rnd.itemId();
            } while (!used.add(item)); // distinct items: one stock update per item
            if (rollback && i == olCnt - 1) {
                item = UNUSED_ITEM;
            }
            int supply = homeW;
            if (warehouses > 1 && rnd.uniform(1, 100) == 1) {
                do {
                    supply = rnd.uniform(1, warehouses);
                } while (supply == homeW);
            }
            lines[i] = new Line(item, supply, rnd.uniform(1, 10));
        }
        return new Input(homeW, d, c, lines, System.currentTimeMillis());
    }

    /** Runs the transaction body; returns the order's total amount in cents (the terminal output). */
    static long execute(Tables t, Transaction tx, Input in) {
        int w = in.w(), d = in.d();
        Tuple warehouse = t.warehouse().get(Key.of(w));
        Tuple district = Rows.forUpdate(tx, t.district(), Key.of(w, d));
        int oid = district.getInt(D_NEXT_O_ID);
        tx.upsert(t.district(), district.with(D_NEXT_O_ID, oid + 1));
        Tuple customer = t.customer().get(Key.of(w, d, in.c()));
        boolean allLocal = true;
        for (Line l : in.lines()) {
            allLocal &= l.supplyW() == w;
        }
        tx.insert(t.order(), Tuple.of(w, d, oid, in.c(), in.entryDate(), null, in.lines().length, allLocal ? 1 : 0));
        tx.insert(t.newOrder(), Tuple.of(w, d, oid));

        Tuple[] items = new Tuple[in.lines().length];
        for (int i = 0; i < items.length; i++) {
            items[i] = t.item().get(Key.of(in.lines()[i].itemId()));
            if (items[i] == null) {
                throw new SpecRollback("item " + in.lines()[i].itemId() + " not found");
            }
        }
        // Lock every stock row in key order first (deadlock avoidance), then process lines in input order.
        TreeSet<Long> order = new TreeSet<>();
        for (Line l : in.lines()) {
            order.add(((long) l.supplyW() << 32) | l.itemId());
        }
        Map<Long, Tuple> stock = new HashMap<>();
        for (long k : order) {
            stock.put(k, Rows.forUpdate(tx, t.stock(), Key.of((int) (k >>> 32), (int) k)));
        }
        long total = 0;
        for (int i = 0; i < items.length; i++) {
            Line l = in.lines()[i];
            long k = ((long) l.supplyW() << 32) | l.itemId();
            Tuple s = stock.get(k);
            int q = s.getInt(S_QUANTITY);
            int newQ = q >= l.quantity() + 10 ? q - l.quantity() : q - l.quantity() + 91;
            s = s.with(S_QUANTITY, newQ)
                    .with(S_YTD, s.getLong(S_YTD) + l.quantity())
                    .with(S_ORDER_CNT, s.getInt(S_ORDER_CNT) + 1)
                    .with(S_REMOTE_CNT, s.getInt(S_REMOTE_CNT) + (l.supplyW() == w ? 0 : 1));
            tx.upsert(t.stock(), s);
            long amount = l.quantity() * items[i].getLong(I_PRICE);
            total += amount;
            tx.insert(t.orderLine(), Tuple.of(w, d, oid, i + 1, l.itemId(), l.supplyW(), null, l.quantity(), amount,
                    s.getString(S_DIST_01 + d - 1)));
        }
        // total * (1 - C_DISCOUNT) * (1 + W_TAX + D_TAX), rates in 1/10,000
        return total * (10_000 - customer.getInt(C_DISCOUNT)) / 10_000
                * (10_000 + warehouse.getInt(W_TAX) + district.getInt(D_TAX)) / 10_000;
    }
}
