package dev.breakwater.tpcc;

import static dev.breakwater.tpcc.Schema.*;

import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Checks the consistency conditions of clause 3.3.2 by scanning the datasets (without locks:
 * requires a quiescent database, i.e. no transactions running).
 *
 * <ol>
 *   <li>W_YTD = sum(D_YTD) of its districts.
 *   <li>D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) of the district.
 *   <li>max(NO_O_ID) - min(NO_O_ID) + 1 = number of NEW_ORDER rows of the district.
 *   <li>sum(O_OL_CNT) = number of ORDER_LINE rows of the district.
 *   <li>O_CARRIER_ID is null iff the order has a NEW_ORDER row.
 *   <li>O_OL_CNT = number of ORDER_LINE rows of the order.
 *   <li>OL_DELIVERY_D is null iff the order's O_CARRIER_ID is null.
 *   <li>W_YTD = sum(H_AMOUNT) of HISTORY rows with H_W_ID = W_ID.
 *   <li>D_YTD = sum(H_AMOUNT) of HISTORY rows with (H_W_ID, H_D_ID) = (D_W_ID, D_ID).
 *   <li>C_BALANCE = sum(OL_AMOUNT of the customer's delivered order lines) - sum(H_AMOUNT of the customer's payments).
 *   <li>count(ORDER) - count(NEW_ORDER) = 2100 per district: holds only until the first Delivery,
 *       so it is checked on a freshly loaded database and reported as not applicable after a run.
 *   <li>C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT of the customer's delivered order lines).
 * </ol>
 *
 * <p>Memory: per-customer sums for all warehouses (two longs each), and one district's orders at a time.
 *
 * <p>Thread safety: none; one thread.
 */
public final class ConsistencyChecker {

    private final Tables t;
    private final int warehouses;

    public ConsistencyChecker(Tables tables, int warehouses) {
        this.t = tables;
        this.warehouses = warehouses;
    }

    /** Runs every condition; {@code freshLoad} says whether condition 11 applies. */
    public List<CheckResult> check(boolean freshLoad) {
        Condition c1 = new Condition(1, "W_YTD = sum(D_YTD)");
        Condition c2 = new Condition(2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)");
        Condition c3 = new Condition(3, "max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW_ORDER)");
        Condition c4 = new Condition(4, "sum(O_OL_CNT) = count(ORDER_LINE) per district");
        Condition c5 = new Condition(5, "O_CARRIER_ID null iff NEW_ORDER row exists");
        Condition c6 = new Condition(6, "O_OL_CNT = count(ORDER_LINE) per order");
        Condition c7 = new Condition(7, "OL_DELIVERY_D null iff O_CARRIER_ID null");
        Condition c8 = new Condition(8, "W_YTD = sum(H_AMOUNT) by H_W_ID");
        Condition c9 = new Condition(9, "D_YTD = sum(H_AMOUNT) by (H_W_ID, H_D_ID)");
        Condition c10 = new Condition(10, "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT)");
        Condition c11 = new Condition(11, "count(ORDER) - count(NEW_ORDER) = 2100 per district");
        Condition c12 = new Condition(12, "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT)");

        int customers = warehouses * DISTRICTS * CUSTOMERS;
        long[] paidByCustomer = new long[customers];
        long[] deliveredByCustomer = new long[customers];
        long[][] historyByDistrict = new long[warehouses + 1][DISTRICTS + 1];
        scan(t.history(), KeyRange.all(), h -> {
            int w = h.getInt(H_W_ID), d = h.getInt(H_D_ID);
            if (w >= 1 && w <= warehouses && d >= 1 && d <= DISTRICTS) {
                historyByDistrict[w][d] += h.getLong(H_AMOUNT);
            }
            int ci = customerIndex(h.getInt(H_C_W_ID), h.getInt(H_C_D_ID), h.getInt(H_C_ID));
            if (ci >= 0) {
                paidByCustomer[ci] += h.getLong(H_AMOUNT);
            }
        });

        for (int w = 1; w <= warehouses; w++) {
            int ww = w;
            Tuple wh = t.warehouse().get(Key.of(w));
            long wYtd = wh.getLong(W_YTD);
            long sumDYtd = 0;
            long sumH = 0;
            for (int d = 1; d <= DISTRICTS; d++) {
                int dd = d;
                Tuple di = t.district().get(Key.of(w, d));
                long dYtd = di.getLong(D_YTD);
                sumDYtd += dYtd;
                sumH += historyByDistrict[w][d];
                c9.check(dYtd == historyByDistrict[w][d], () -> "district " + ww + "/" + dd + ": D_YTD " + dYtd
                        + " != sum(H_AMOUNT) " + historyByDistrict[ww][dd]);
                checkDistrict(w, d, di.getInt(D_NEXT_O_ID), deliveredByCustomer, c2, c3, c4, c5, c6, c7, c11);
            }
            long fSumD = sumDYtd, fSumH = sumH;
            c1.check(wYtd == sumDYtd, () -> "warehouse " + ww + ": W_YTD " + wYtd + " != sum(D_YTD) " + fSumD);
            c8.check(wYtd == sumH, () -> "warehouse " + ww + ": W_YTD " + wYtd + " != sum(H_AMOUNT) " + fSumH);
        }

        scan(t.customer(), KeyRange.all(), c -> {
            int ci = customerIndex(c.getInt(C_W_ID), c.getInt(C_D_ID), c.getInt(C_ID));
            long balance = c.getLong(C_BALANCE);
            long ytd = c.getLong(C_YTD_PAYMENT);
            String who = "customer " + c.getInt(C_W_ID) + "/" + c.getInt(C_D_ID) + "/" + c.getInt(C_ID);
            c10.check(ci >= 0 && balance == deliveredByCustomer[ci] - paidByCustomer[ci], () -> who + ": C_BALANCE "
                    + balance + " != " + deliveredByCustomer[ci] + " - " + paidByCustomer[ci]);
            c12.check(ci >= 0 && balance + ytd == deliveredByCustomer[ci], () -> who + ": C_BALANCE + C_YTD_PAYMENT "
                    + (balance + ytd) + " != " + deliveredByCustomer[ci]);
        });

        List<CheckResult> out = new ArrayList<>();
        for (Condition c : List.of(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10)) {
            out.add(c.result());
        }
        out.add(freshLoad ? c11.result() : Condition.notApplicable(11, "count(ORDER) - count(NEW_ORDER) = 2100 per district",
                "holds only before the first Delivery; checked after the load"));
        out.add(c12.result());
        return out;
    }

    private void checkDistrict(int w, int d, int nextOid, long[] deliveredByCustomer, Condition c2, Condition c3,
                               Condition c4, Condition c5, Condition c6, Condition c7, Condition c11) {
        String where = "district " + w + "/" + d;
        int size = nextOid + 16;
        int[] customer = new int[size];
        int[] olCnt = new int[size];
        boolean[] exists = new boolean[size];
        boolean[] undelivered = new boolean[size];
        boolean[] hasNewOrder = new boolean[size];
        int[] lines = new int[size];
        long[] deliveredAmount = new long[size];
        int[] maxO = {0};
        long[] orders = {0};
        long[] sumOlCnt = {0};
        scan(t.order(), KeyRange.prefix(Key.of(w, d)), o -> {
            int id = o.getInt(O_ID);
            maxO[0] = Math.max(maxO[0], id);
            orders[0]++;
            sumOlCnt[0] += o.getInt(O_OL_CNT);
            if (id < size) {
                exists[id] = true;
                customer[id] = o.getInt(O_C_ID);
                olCnt[id] = o.getInt(O_OL_CNT);
                undelivered[id] = o.isNull(O_CARRIER_ID);
            }
        });
        int[] minNo = {Integer.MAX_VALUE};
        int[] maxNo = {0};
        long[] newOrders = {0};
        scan(t.newOrder(), KeyRange.prefix(Key.of(w, d)), no -> {
            int id = no.getInt(NO_O_ID);
            minNo[0] = Math.min(minNo[0], id);
            maxNo[0] = Math.max(maxNo[0], id);
            newOrders[0]++;
            if (id < size) {
                hasNewOrder[id] = true;
            }
        });
        long[] lineCount = {0};
        scan(t.orderLine(), KeyRange.prefix(Key.of(w, d)), ol -> {
            int id = ol.getInt(OL_O_ID);
            lineCount[0]++;
            if (id < size) {
                lines[id]++;
                boolean nullDate = ol.isNull(OL_DELIVERY_D);
                c7.check(exists[id] && nullDate == undelivered[id], () -> where + " order " + id + " line "
                        + ol.getInt(OL_NUMBER) + ": OL_DELIVERY_D " + (nullDate ? "null" : "set") + " but O_CARRIER_ID "
                        + (exists[id] && undelivered[id] ? "null" : "set or no order"));
                if (!nullDate) {
                    deliveredAmount[id] += ol.getLong(OL_AMOUNT);
                }
            }
        });
        c2.check(nextOid - 1 == maxO[0] && (newOrders[0] == 0 || nextOid - 1 == maxNo[0]), () -> where + ": D_NEXT_O_ID - 1 = "
                + (nextOid - 1) + ", max(O_ID) = " + maxO[0] + ", max(NO_O_ID) = " + maxNo[0]);
        if (newOrders[0] > 0) {
            c3.check(maxNo[0] - minNo[0] + 1 == newOrders[0], () -> where + ": max - min + 1 = "
                    + (maxNo[0] - minNo[0] + 1) + " but " + newOrders[0] + " NEW_ORDER rows");
        }
        c4.check(sumOlCnt[0] == lineCount[0], () -> where + ": sum(O_OL_CNT) " + sumOlCnt[0] + " != " + lineCount[0] + " lines");
        c11.check(orders[0] - newOrders[0] == FIRST_UNDELIVERED - 1, () -> where + ": " + orders[0] + " orders - "
                + newOrders[0] + " new orders != 2100");
        for (int o = 1; o < size; o++) {
            int id = o;
            if (!exists[o]) {
                c5.check(!hasNewOrder[o], () -> where + ": NEW_ORDER " + id + " without an order");
                continue;
            }
            c5.check(undelivered[o] == hasNewOrder[o], () -> where + " order " + id + ": O_CARRIER_ID "
                    + (undelivered[id] ? "null" : "set") + (hasNewOrder[id] ? " with" : " without") + " a NEW_ORDER row");
            c6.check(olCnt[o] == lines[o], () -> where + " order " + id + ": O_OL_CNT " + olCnt[id] + " != " + lines[id] + " lines");
            int ci = customerIndex(w, d, customer[o]);
            if (ci >= 0) {
                deliveredByCustomer[ci] += deliveredAmount[o];
            }
        }
    }

    private int customerIndex(int w, int d, int c) {
        if (w < 1 || w > warehouses || d < 1 || d > DISTRICTS || c < 1 || c > CUSTOMERS) {
            return -1;
        }
        return ((w - 1) * DISTRICTS + (d - 1)) * CUSTOMERS + (c - 1);
    }

    private static void scan(Dataset ds, KeyRange range, Consumer<Tuple> each) {
        try (Cursor<Tuple> c = ds.scan(range)) {
            c.forEachRemaining(each);
        }
    }

    /** Row counts of every TPC-C table, for reports and the load test. */
    public static java.util.Map<String, Long> cardinalities(Tables t) {
        java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
        for (Dataset ds : Arrays.asList(t.warehouse(), t.district(), t.customer(), t.history(), t.newOrder(), t.order(),
                t.orderLine(), t.item(), t.stock())) {
            long[] n = {0};
            scan(ds, KeyRange.all(), r -> n[0]++);
            m.put(ds.name(), n[0]);
        }
        return m;
    }
}
