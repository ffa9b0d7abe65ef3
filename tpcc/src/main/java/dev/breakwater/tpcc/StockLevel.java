package dev.breakwater.tpcc;

import static dev.breakwater.tpcc.Schema.*;

import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;
import java.util.TreeSet;

/**
 * The Stock-Level transaction (clause 2.8), read-only: the distinct items of the district's last 20
 * orders whose stock in the home warehouse is below a threshold in [10, 20]. The district is fixed
 * per terminal.
 *
 * <p>Thread safety: stateless.
 */
final class StockLevel {

    record Input(int w, int d, int threshold) {
    }

    private StockLevel() {
    }

    static Input generate(TpccRandom rnd, int homeW, int homeD) {
        return new Input(homeW, homeD, rnd.uniform(10, 20));
    }

    /** Returns the number of distinct low-stock items. */
    static int execute(Tables t, Transaction tx, Input in) {
        int w = in.w(), d = in.d();
        int next = tx.get(t.district(), Key.of(w, d)).getInt(D_NEXT_O_ID);
        TreeSet<Integer> items = new TreeSet<>();
        try (Cursor<Tuple> c = tx.scan(t.orderLine(), KeyRange.closedOpen(Key.of(w, d, next - 20), Key.of(w, d, next)))) {
            c.forEachRemaining(ol -> items.add(ol.getInt(OL_I_ID)));
        }
        int low = 0;
        for (int i : items) {
            Tuple s = tx.get(t.stock(), Key.of(w, i));
            if (s != null && s.getInt(S_QUANTITY) < in.threshold()) {
                low++;
            }
        }
        return low;
    }
}
