package dev.breakwater.tpcc;

import dev.breakwater.txn.Tuple;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Generates the initial population of clause 4.3.3.1 and hands each row to a {@link BatchInserter}:
 * the ITEM table, one warehouse with its STOCK, and one district with its customers, history,
 * orders, order lines and new orders.
 *
 * <p>Thread safety: none; each loader task uses its own instance (its own {@link TpccRandom}).
 */
final class InitialRows {

    private final Tables t;
    private final TpccRandom rnd;
    private final BatchInserter out;
    private final long now;

    InitialRows(Tables tables, TpccRandom rnd, BatchInserter out, long now) {
        this.t = tables;
        this.rnd = rnd;
        this.out = out;
        this.now = now;
    }

    /** Items {@code from..to} (inclusive). */
    void items(int from, int to) {
        for (int i = from; i <= to; i++) {
            out.insert(t.item(), Tuple.of(i, rnd.uniform(1, 10_000), rnd.astring(14, 24),
                    rnd.uniform(100L, 10_000L), rnd.data()));
        }
    }

    /** The WAREHOUSE row of {@code w} and its 100,000 STOCK rows. */
    void warehouseAndStock(int w) {
        out.insert(t.warehouse(), Tuple.of(w, rnd.astring(6, 10), rnd.astring(10, 20), rnd.astring(10, 20),
                rnd.astring(10, 20), rnd.astring(2, 2), rnd.zip(), rnd.uniform(0, 2000), 30_000_000L));
        for (int i = 1; i <= Schema.ITEMS; i++) {
            Object[] s = new Object[Schema.S_DATA + 1];
            s[Schema.S_W_ID] = w;
            s[Schema.S_I_ID] = i;
            s[Schema.S_QUANTITY] = rnd.uniform(10, 100);
            for (int d = 0; d < Schema.DISTRICTS; d++) {
                s[Schema.S_DIST_01 + d] = rnd.astring(24, 24);
            }
            s[Schema.S_YTD] = 0L;
            s[Schema.S_ORDER_CNT] = 0;
            s[Schema.S_REMOTE_CNT] = 0;
            s[Schema.S_DATA] = rnd.data();
            out.insert(t.stock(), Tuple.of(s));
        }
    }

    /** District (w, d) with its 3,000 customers, 3,000 history rows, 3,000 orders, their lines and 900 new orders. */
    void district(int w, int d) {
        out.insert(t.district(), Tuple.of(w, d, rnd.astring(6, 10), rnd.astring(10, 20), rnd.astring(10, 20),
                rnd.astring(10, 20), rnd.astring(2, 2), rnd.zip(), rnd.uniform(0, 2000), 3_000_000L,
                Schema.INITIAL_ORDERS + 1));
        for (int c = 1; c <= Schema.CUSTOMERS; c++) {
            customer(w, d, c);
            out.insert(t.history(), Tuple.of(w, d, rnd.nextLong(), w, d, c, now, 1_000L, rnd.astring(12, 24)));
        }
        List<Integer> customers = new ArrayList<>(Schema.CUSTOMERS);
        for (int c = 1; c <= Schema.CUSTOMERS; c++) {
            customers.add(c);
        }
        Collections.shuffle(customers, new java.util.Random(rnd.nextLong()));
        for (int o = 1; o <= Schema.INITIAL_ORDERS; o++) {
            boolean delivered = o < Schema.FIRST_UNDELIVERED;
            int olCnt = rnd.uniform(5, 15);
            out.insert(t.order(), Tuple.of(w, d, o, customers.get(o - 1), now,
                    delivered ? rnd.uniform(1, 10) : null, olCnt, 1));
            for (int n = 1; n <= olCnt; n++) {
                out.insert(t.orderLine(), Tuple.of(w, d, o, n, rnd.uniform(1, Schema.ITEMS), w,
                        delivered ? now : null, 5, delivered ? 0L : rnd.uniform(1L, 999_999L), rnd.astring(24, 24)));
            }
            if (!delivered) {
                out.insert(t.newOrder(), Tuple.of(w, d, o));
            }
        }
    }

    private void customer(int w, int d, int c) {
        String last = TpccRandom.lastName(c <= 1000 ? c - 1 : rnd.nurand(255, 0, 999));
        Object[] r = new Object[Schema.C_DATA + 1];
        r[Schema.C_W_ID] = w;
        r[Schema.C_D_ID] = d;
        r[Schema.C_ID] = c;
        r[Schema.C_FIRST] = rnd.astring(8, 16);
        r[Schema.C_MIDDLE] = "OE";
        r[Schema.C_LAST] = last;
        r[Schema.C_STREET_1] = rnd.astring(10, 20);
        r[Schema.C_STREET_2] = rnd.astring(10, 20);
        r[Schema.C_CITY] = rnd.astring(10, 20);
        r[Schema.C_STATE] = rnd.astring(2, 2);
        r[Schema.C_ZIP] = rnd.zip();
        r[Schema.C_PHONE] = rnd.nstring(16, 16);
        r[Schema.C_SINCE] = now;
        r[Schema.C_CREDIT] = rnd.uniform(1, 10) == 1 ? "BC" : "GC";
        r[Schema.C_CREDIT_LIM] = 5_000_000L;
        r[Schema.C_DISCOUNT] = rnd.uniform(0, 5000);
        r[Schema.C_BALANCE] = -1_000L;
        r[Schema.C_YTD_PAYMENT] = 1_000L;
        r[Schema.C_PAYMENT_CNT] = 1;
        r[Schema.C_DELIVERY_CNT] = 0;
        r[Schema.C_DATA] = rnd.astring(300, 500);
        out.insert(t.customer(), Tuple.of(r));
    }
}
