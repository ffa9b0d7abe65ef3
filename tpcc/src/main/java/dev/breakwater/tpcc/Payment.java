package dev.breakwater.tpcc;

import static dev.breakwater.tpcc.Schema.*;

import dev.breakwater.txn.Key;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;

/**
 * The Payment transaction (clause 2.5): 60% of customers selected by last name, 15% from a remote
 * warehouse (when there is more than one), BC-credit customers get C_DATA prefixed with the payment.
 *
 * <p>Locking: warehouse, district and customer rows are read for update in that order (the same
 * order in every Payment), so Payments of one warehouse queue on the warehouse row.
 *
 * <p>Thread safety: stateless.
 */
final class Payment {

    record Input(int w, int d, int cw, int cd, int c, String last, long amount, long date, long historyId) {
        boolean byName() {
            return last != null;
        }
    }

    private Payment() {
    }

    static Input generate(TpccRandom rnd, int homeW, int warehouses) {
        int d = rnd.uniform(1, DISTRICTS);
        int cw = homeW, cd = d;
        if (warehouses > 1 && rnd.uniform(1, 100) <= 15) {
            do {
                cw = rnd.uniform(1, warehouses);
            } while (cw == homeW);
            cd = rnd.uniform(1, DISTRICTS);
        }
        boolean byName = rnd.uniform(1, 100) <= 60;
        return new Input(homeW, d, cw, cd, byName ? 0 : rnd.customerId(), byName ? rnd.randomLastName() : null,
                rnd.uniform(100L, 500_000L), System.currentTimeMillis(), rnd.nextLong());
    }

    static void execute(Tables t, Transaction tx, Input in) {
        Tuple wh = Rows.forUpdate(tx, t.warehouse(), Key.of(in.w()));
        tx.upsert(t.warehouse(), wh.with(W_YTD, wh.getLong(W_YTD) + in.amount()));
        Tuple di = Rows.forUpdate(tx, t.district(), Key.of(in.w(), in.d()));
        tx.upsert(t.district(), di.with(D_YTD, di.getLong(D_YTD) + in.amount()));
        int cid = in.byName() ? Rows.customerByLastName(tx, t, in.cw(), in.cd(), in.last()).getInt(C_ID) : in.c();
        Tuple cu = Rows.forUpdate(tx, t.customer(), Key.of(in.cw(), in.cd(), cid));
        cu = cu.with(C_BALANCE, cu.getLong(C_BALANCE) - in.amount())
                .with(C_YTD_PAYMENT, cu.getLong(C_YTD_PAYMENT) + in.amount())
                .with(C_PAYMENT_CNT, cu.getInt(C_PAYMENT_CNT) + 1);
        if ("BC".equals(cu.getString(C_CREDIT))) {
            String data = cid + " " + in.cd() + " " + in.cw() + " " + in.d() + " " + in.w() + " " + in.amount() + "|"
                    + cu.getString(C_DATA);
            cu = cu.with(C_DATA, data.length() > 500 ? data.substring(0, 500) : data);
        }
        tx.upsert(t.customer(), cu);
        tx.insert(t.history(), Tuple.of(in.w(), in.d(), in.historyId(), in.cw(), in.cd(), cid, in.date(), in.amount(),
                wh.getString(W_NAME) + "    " + di.getString(D_NAME)));
    }
}
