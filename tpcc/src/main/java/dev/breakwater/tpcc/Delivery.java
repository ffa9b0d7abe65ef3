package dev.breakwater.tpcc;

import static dev.breakwater.tpcc.Schema.*;

import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;

/**
 * The Delivery transaction (clause 2.7), run as one transaction over all ten districts of a
 * warehouse (not deferred): per district the oldest NEW_ORDER row is deleted, the order gets the
 * carrier, its lines the delivery date, and the customer the lines' amount and one more delivery.
 *
 * <p>Thread safety: stateless.
 */
final class Delivery {

    record Input(int w, int carrier, long date) {
    }

    private Delivery() {
    }

    static Input generate(TpccRandom rnd, int homeW) {
        return new Input(homeW, rnd.uniform(1, 10), System.currentTimeMillis());
    }

    /** Returns the number of districts with an order delivered (the rest had none, clause 2.7.4.2). */
    static int execute(Tables t, Transaction tx, Input in) {
        int w = in.w();
        int delivered = 0;
        for (int d = 1; d <= DISTRICTS; d++) {
            Tuple no;
            try (Cursor<Tuple> c = tx.scan(t.newOrder(), KeyRange.prefix(Key.of(w, d)))) {
                no = c.hasNext() ? c.next() : null;
            }
            if (no == null) {
                continue;
            }
            int oid = no.getInt(NO_O_ID);
            tx.delete(t.newOrder(), Key.of(w, d, oid));
            Tuple order = Rows.forUpdate(tx, t.order(), Key.of(w, d, oid));
            tx.upsert(t.order(), order.with(O_CARRIER_ID, in.carrier()));
            long sum = 0;
            for (int n = 1; n <= order.getInt(O_OL_CNT); n++) {
                Tuple ol = Rows.forUpdate(tx, t.orderLine(), Key.of(w, d, oid, n));
                sum += ol.getLong(OL_AMOUNT);
                tx.upsert(t.orderLine(), ol.with(OL_DELIVERY_D, in.date()));
            }
            Tuple cu = Rows.forUpdate(tx, t.customer(), Key.of(w, d, order.getInt(O_C_ID)));
            tx.upsert(t.customer(), cu.with(C_BALANCE, cu.getLong(C_BALANCE) + sum)
                    .with(C_DELIVERY_CNT, cu.getInt(C_DELIVERY_CNT) + 1));
            delivered++;
        }
        return delivered;
    }
}
