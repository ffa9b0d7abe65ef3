package dev.breakwater.tpcc;

import static dev.breakwater.tpcc.Schema.*;

import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;

/**
 * The Order-Status transaction (clause 2.6), read-only: the customer (60% by last name), their last
 * order through the {@value Schema#ORDER_BY_CUSTOMER} index, and its order lines by primary key.
 *
 * <p>Thread safety: stateless.
 */
final class OrderStatus {

    record Input(int w, int d, int c, String last) {
    }

    private OrderStatus() {
    }

    static Input generate(TpccRandom rnd, int homeW) {
        int d = rnd.uniform(1, DISTRICTS);
        boolean byName = rnd.uniform(1, 100) <= 60;
        return new Input(homeW, d, byName ? 0 : rnd.customerId(), byName ? rnd.randomLastName() : null);
    }

    /** Returns the number of order lines shown (0 if the customer has no order). */
    static int execute(Tables t, Transaction tx, Input in) {
        Tuple cu = in.last() != null ? Rows.customerByLastName(tx, t, in.w(), in.d(), in.last())
                : tx.get(t.customer(), Key.of(in.w(), in.d(), in.c()));
        int cid = cu.getInt(C_ID);
        Tuple last = null; // the customer's latest order: the first of its orders by o_id, descending
        try (Cursor<Tuple> c = tx.reverseScan(t.order(), ORDER_BY_CUSTOMER, KeyRange.prefix(Key.of(in.w(), in.d(), cid)))) {
            if (c.hasNext()) {
                last = c.next();
            }
        }
        if (last == null) {
            return 0;
        }
        int shown = 0;
        for (int n = 1; n <= last.getInt(O_OL_CNT); n++) {
            if (tx.get(t.orderLine(), Key.of(in.w(), in.d(), last.getInt(O_ID), n)) != null) {
                shown++;
            }
        }
        return shown;
    }
}
